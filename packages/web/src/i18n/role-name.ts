import { isMessageId } from './messages/index.js';
import { useT } from './use-t.js';

/**
 * A space role in the user's language (`owner` → 所有者); a role the catalogues do not know yet is
 * shown as the server named it rather than hidden.
 */
export function useRoleName(): (role: string) => string {
  const t = useT();
  return (role) => {
    const id = `role.${role}`;
    return isMessageId(id) ? t(id) : role;
  };
}
