import { NavLink, Outlet, useParams } from 'react-router';
import { useSpaceAccess } from '../session/index.js';

const sections = [
  { to: 'agents', label: 'Agents' },
  { to: 'workflows', label: 'Workflows' },
  { to: 'connections', label: 'Model connections' },
  { to: 'prompts', label: 'Prompts' },
  { to: 'skills', label: 'Skills' },
  { to: 'http-tools', label: 'HTTP tools' },
  { to: 'mcp-servers', label: 'MCP servers' },
  { to: 'hooks', label: 'Hooks' },
  { to: 'members', label: 'Members' },
  { to: 'api-keys', label: 'API keys' },
] as const;

/** A space's pages with their navigation; a user who is not a member is told so. */
export function SpaceLayout() {
  const { spaceId } = useParams();
  const access = useSpaceAccess(spaceId);
  if (!access.role) {
    return (
      <div className="alert alert-error" role="alert">
        You are not a member of this space, or it does not exist.
      </div>
    );
  }
  return (
    <div className="space-frame">
      <nav aria-label="Space" className="space-nav">
        <ul>
          {sections.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to}>{section.label}</NavLink>
            </li>
          ))}
        </ul>
        <p className="role-badge">Your role: {access.role}</p>
      </nav>
      <div className="space-page">
        <Outlet />
      </div>
    </div>
  );
}
