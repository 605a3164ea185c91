import { type MessageId, useT } from '../../i18n/index.js';
import type { Capabilities } from './draft-state.js';
import { useEditor } from './editor-context.js';

type ListKey = 'tools' | 'skills' | 'mcpServers' | 'remoteAgents';
const resourceLists: { key: ListKey; type: 'tool' | 'skill' | 'mcp-server' | 'remote-agent'; title: MessageId }[] = [
  { key: 'tools', type: 'tool', title: 'capabilities.httpTools' },
  { key: 'skills', type: 'skill', title: 'capabilities.skills' },
  { key: 'mcpServers', type: 'mcp-server', title: 'capabilities.mcpServers' },
  { key: 'remoteAgents', type: 'remote-agent', title: 'capabilities.remoteAgents' },
];

function toggled<Item>(list: readonly Item[], item: Item, on: boolean): Item[] {
  return on ? [...list.filter((entry) => entry !== item), item] : list.filter((entry) => entry !== item);
}

/** Which built-in tool groups, shared tools, skills, MCP servers and remote agents a role may use. */
export function CapabilitiesPicker({
  title,
  path,
  value,
  onChange,
}: {
  title: string;
  path: string;
  value: Capabilities;
  onChange: (value: Capabilities) => void;
}) {
  const { resources, builtInTools, readOnly, issueAt } = useEditor();
  const t = useT();
  return (
    <fieldset className="fieldset">
      <legend>{title}</legend>
      <fieldset className="fieldset-inner">
        <legend>{t('capabilities.builtIn')}</legend>
        {builtInTools
          .filter((tool) => tool.name !== 'read_skill')
          .map((tool) => (
            <label key={tool.name} className="check-row">
              <input
                type="checkbox"
                disabled={readOnly}
                checked={value.builtIn.includes(tool.name as Capabilities['builtIn'][number])}
                onChange={(event) =>
                  onChange({
                    ...value,
                    builtIn: toggled(value.builtIn, tool.name as Capabilities['builtIn'][number], event.target.checked),
                  })
                }
              />{' '}
              <code>{tool.name}</code> — {tool.description}
            </label>
          ))}
      </fieldset>
      {resourceLists.map((list) => {
        const available = resources.filter((resource) => resource.type === list.type);
        return (
          <fieldset className="fieldset-inner" key={list.key}>
            <legend>{t(list.title)}</legend>
            {available.length === 0 ? <p className="field-hint">{t('capabilities.none')}</p> : null}
            {available.map((resource) => {
              const index = value[list.key].indexOf(resource.id);
              const problem = index >= 0 ? issueAt(`${path}.${list.key}.${index}`) : undefined;
              return (
                <div key={resource.id}>
                  <label className="check-row">
                    <input
                      type="checkbox"
                      disabled={readOnly}
                      checked={index >= 0}
                      onChange={(event) =>
                        onChange({ ...value, [list.key]: toggled(value[list.key], resource.id, event.target.checked) })
                      }
                    />{' '}
                    {resource.name}
                  </label>
                  {problem ? <p className="field-error">{problem}</p> : null}
                </div>
              );
            })}
          </fieldset>
        );
      })}
    </fieldset>
  );
}
