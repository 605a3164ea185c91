import { NavLink, Outlet, useParams } from 'react-router';
import { type MessageId, useRoleName, useT } from '../i18n/index.js';
import { useSpaceAccess } from '../session/index.js';

const sections: readonly { to: string; label: MessageId }[] = [
  { to: 'agents', label: 'space.section.agents' },
  { to: 'workflows', label: 'space.section.workflows' },
  { to: 'routers', label: 'space.section.routers' },
  { to: 'connections', label: 'space.section.connections' },
  { to: 'prompts', label: 'space.section.prompts' },
  { to: 'skills', label: 'space.section.skills' },
  { to: 'http-tools', label: 'space.section.httpTools' },
  { to: 'mcp-servers', label: 'space.section.mcpServers' },
  { to: 'remote-agents', label: 'space.section.remoteAgents' },
  { to: 'hooks', label: 'space.section.hooks' },
  { to: 'members', label: 'space.section.members' },
  { to: 'api-keys', label: 'space.section.apiKeys' },
];

/** A space's pages with their navigation; a user who is not a member is told so. */
export function SpaceLayout() {
  const { spaceId } = useParams();
  const access = useSpaceAccess(spaceId);
  const t = useT();
  const roleName = useRoleName();
  if (!access.role) {
    return (
      <div className="alert alert-error" role="alert">
        {t('space.notMember')}
      </div>
    );
  }
  return (
    <div className="space-frame">
      <nav aria-label={t('space.nav')} className="space-nav">
        <ul>
          {sections.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to}>{t(section.label)}</NavLink>
            </li>
          ))}
        </ul>
        <p className="role-badge">{t('space.yourRole', { role: roleName(access.role) })}</p>
      </nav>
      <div className="space-page">
        <Outlet />
      </div>
    </div>
  );
}
