import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The channel migration 0013's triggers announce on. */
export const AUTH_CHANGES_CHANNEL = 'quire_auth_changes';
/** Where each listener says it has acted on a change: `<its application name> <the change's payload>`. */
const AUTH_ACKS_CHANNEL = 'quire_auth_acks';
/** Listeners name their connection with this prefix, so a writer can count who must hear a change. */
const LISTENER_NAME = 'quire-auth-listener';

/** What changed: a key (revoked, deleted), a group (its plan, or removed) or an organization (removed). */
export interface AuthChange {
  kind: 'key' | 'group' | 'organization';
  id: string;
}

export interface AuthChangeHandlers {
  onChange(change: AuthChange): void;
  /** LISTEN is in place: from now on every change reaches `onChange`. */
  onListening(): void;
  /** The connection is gone (or stopped answering): changes may be missed until `onListening` again. */
  onLost(err: Error): void;
}

export interface AuthChangeListener {
  close(): Promise<void>;
}

const payloadOf = (change: AuthChange) => `${change.kind}:${change.id}`;

const parseChange = (payload: string | undefined): AuthChange | undefined => {
  const match = /^(key|group|organization):(.+)$/.exec(payload ?? '');
  return match ? { kind: match[1] as AuthChange['kind'], id: match[2]! } : undefined;
};

/**
 * One dedicated connection LISTENing on the auth channel, reconnected with a growing delay whenever it drops.
 * A connection that dies without a word (a cable pulled, a frozen server) is caught by a query every
 * `heartbeatMs` that must answer within that time. Once `onChange` has run, the change is acknowledged on the
 * acks channel, for a writer waiting in `changeAuthAndWait`.
 */
export function listenForAuthChanges(
  connectionString: string,
  handlers: AuthChangeHandlers,
  options: { heartbeatMs?: number; minRetryMs?: number; maxRetryMs?: number } = {},
): AuthChangeListener {
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const minRetryMs = options.minRetryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  let retryMs = minRetryMs;
  let closed = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  // Unique across machines (pids are not); the pid tells an operator which process it is.
  const applicationName = `${LISTENER_NAME}:${process.pid}.${randomBytes(4).toString('hex')}`;

  const connect = async () => {
    const client = new pg.Client({
      connectionString,
      application_name: applicationName,
      keepAlive: true,
      connectionTimeoutMillis: heartbeatMs,
      query_timeout: heartbeatMs,
    });
    let lost = false;
    const lose = (err: Error) => {
      if (lost) return;
      lost = true;
      if (current === client) current = undefined;
      client.end().catch(() => {});
      if (!closed) {
        handlers.onLost(err);
        retry = setTimeout(() => void connect(), retryMs);
        retryMs = Math.min(retryMs * 2, maxRetryMs);
      }
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('the listening connection ended')));
    client.on('notification', (message) => {
      const change = parseChange(message.payload);
      if (!change) return;
      handlers.onChange(change);
      client
        .query('select pg_notify($1, $2)', [AUTH_ACKS_CHANNEL, `${applicationName} ${message.payload}`])
        .catch(() => {});
    });
    try {
      await client.connect();
      await client.query(`listen ${AUTH_CHANGES_CHANNEL}`);
    } catch (err) {
      lose(err as Error);
      return;
    }
    if (closed || lost) {
      lost = true;
      await client.end().catch(() => {});
      return;
    }
    current = client;
    retryMs = minRetryMs;
    const heartbeat = setInterval(() => {
      if (lost) clearInterval(heartbeat);
      else client.query('select 1').catch((err: Error) => lose(err));
    }, heartbeatMs);
    heartbeat.unref();
    handlers.onListening();
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
}

/**
 * Runs `change` (which commits a change the triggers announce, e.g. a revocation) and waits until every api
 * process listening when it began has acted on `announced` or lost its connection, or `timeoutMs` passed. So a command that revokes
 * a key returns only once no api process would still accept it. Returns who had to hear it and who did not.
 */
export async function changeAuthAndWait<T>(
  connectionString: string,
  announced: AuthChange,
  change: () => Promise<T>,
  timeoutMs = 5_000,
): Promise<{ result: T; listeners: number; unheard: string[] }> {
  const client = new pg.Client({ connectionString, application_name: 'quire-auth-writer' });
  await client.connect();
  try {
    const heard = new Set<string>();
    let onHeard = () => {};
    client.on('notification', (message) => {
      const [name, payload] = (message.payload ?? '').split(' ');
      if (message.channel === AUTH_ACKS_CHANNEL && payload === payloadOf(announced) && name) heard.add(name);
      onHeard();
    });
    await client.query(`listen ${AUTH_ACKS_CHANNEL}`);
    const connectedListeners = async () =>
      (
        await client.query<{ name: string }>(
          'select application_name as name from pg_stat_activity where application_name like $1',
          [`${LISTENER_NAME}:%`],
        )
      ).rows.map((r) => r.name);
    let listeners = await connectedListeners();
    const count = listeners.length;
    const result = await change();
    const deadline = Date.now() + timeoutMs;
    while (listeners.some((name) => !heard.has(name)) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now())));
        onHeard = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      // A listener whose connection is gone need not answer: it dropped its whole cache when it lost it.
      const connected = new Set(await connectedListeners());
      listeners = listeners.filter((name) => connected.has(name));
    }
    return { result, listeners: count, unheard: listeners.filter((name) => !heard.has(name)) };
  } finally {
    await client.end().catch(() => {});
  }
}
