/**
 * What of a client's environment a search server's answer depends on besides the workspace and the
 * request: the user-level configuration file (HOME, XDG_CONFIG_HOME) and TZ (the zone of "today" when
 * none is configured). A server whose own differs lets the client answer cold (server.ts).
 */
import { userConfigPath } from '../../config/files.js';

/** A process's user-level configuration file and TZ. */
export interface ClientEnv {
  userConfig: string;
  tz: string;
}

export function clientEnv(env: NodeJS.ProcessEnv): ClientEnv {
  return { userConfig: userConfigPath(env), tz: env.TZ ?? '' };
}

/** Why the server (`own`, with its configured time zone) could answer otherwise than the client would; undefined when it cannot. */
export function envMismatch(
  client: ClientEnv | undefined,
  own: ClientEnv,
  zone: string | undefined,
): string | undefined {
  if (client?.userConfig !== own.userConfig)
    return `the client's user configuration (${client?.userConfig}) is not the server's (${own.userConfig})`;
  if (zone === undefined && client.tz !== own.tz)
    return `no time zone configured and the client's TZ (${client.tz}) is not the server's (${own.tz})`;
  return undefined;
}
