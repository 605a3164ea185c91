import { useQuery } from '@tanstack/react-query';
import { api, queryKeys, type Schema, unwrap } from '../../api/index.js';
import { SelectField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';

export { mcpBindingNameOf } from './draft-model.js';

type Resource = Schema<'Resource'>;

/**
 * An MCP tool node's target: one of the space's MCP server resources, then one of its tools, as
 * the server lists them right now (the resource's test route connects and lists them). When the
 * server cannot be reached the route's problem is written at the tool field, and the tool the
 * node already names stays chosen.
 */
export function McpToolFields({
  spaceId,
  servers,
  serverId,
  tool,
  readOnly,
  onServer,
  onTool,
}: {
  spaceId: string;
  servers: readonly Resource[];
  serverId: string | undefined;
  tool: string | undefined;
  readOnly: boolean;
  onServer: (server: Resource) => void;
  onTool: (tool: string) => void;
}) {
  const t = useT();
  const listed = useQuery({
    queryKey: queryKeys.mcpTools(spaceId, serverId),
    enabled: serverId !== undefined && !readOnly,
    retry: false,
    refetchOnWindowFocus: false,
    queryFn: () =>
      unwrap(
        api.POST('/spaces/{spaceId}/resources/{resourceId}/test', {
          params: { path: { spaceId, resourceId: serverId ?? '' } },
          body: {},
        }),
      ),
  });
  const names = listed.data?.tools.map((item) => item.name) ?? [];
  const options = tool && !names.includes(tool) ? [tool, ...names] : names;
  const describe = (name: string) => listed.data?.tools.find((item) => item.name === name)?.description;
  return (
    <>
      <SelectField
        label={t('workflow.mcp.server')}
        value={serverId ?? ''}
        disabled={readOnly}
        hint={servers.length === 0 ? t('workflow.mcp.noServer') : undefined}
        onChange={(event) => {
          const server = servers.find((candidate) => candidate.id === event.target.value);
          if (server) onServer(server);
        }}
      >
        <option value="">{t('workflow.mcp.chooseServer')}</option>
        {servers.map((server) => (
          <option key={server.id} value={server.id}>
            {server.name}
          </option>
        ))}
      </SelectField>
      {serverId === undefined ? null : (
        <SelectField
          label={t('workflow.mcp.tool')}
          value={tool ?? ''}
          disabled={readOnly || listed.isFetching}
          error={listed.error ? t('workflow.mcp.listFailed', { message: listed.error.message }) : undefined}
          hint={listed.isFetching ? t('workflow.mcp.listing') : tool ? describe(tool) : undefined}
          onChange={(event) => {
            if (event.target.value) onTool(event.target.value);
          }}
        >
          <option value="">{t('workflow.chooseTool')}</option>
          {options.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
      )}
    </>
  );
}
