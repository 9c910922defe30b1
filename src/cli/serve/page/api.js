// The server's JSON API (docs/API.md): one function per call, errors
// thrown as Error with the server's message (and .status, .line).

async function call(method, path, body, raw) {
  const init = { method, headers: {} };
  if (raw !== undefined) {
    init.body = raw;
    init.headers['Content-Type'] = 'application/octet-stream';
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (_) {
    // The browser's own words ("Failed to fetch") say nothing to a player.
    const err = new Error('Cannot reach the server, so nothing was changed: it may be restarting. Try again in a moment.');
    err.status = 0;
    throw err;
  }
  let data = null;
  try { data = await res.json(); } catch (_) { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    if (data && data.line) err.line = data.line;
    throw err;
  }
  return data;
}

const game = (id, rest) => `/api/games/${encodeURIComponent(id)}${rest}`;

export const api = {
  shapes: () => call('GET', '/api/shapes'),
  info: () => call('GET', '/api/info'),
  // A new game, with the engine as `engine` sets it (`level`, `sides`).
  create: (engine = {}) => call('POST', '/api/games', engine),
  get: (id) => call('GET', game(id, '')),
  place: (id, body) => call('POST', game(id, '/place'), body),
  undo: (id) => call('POST', game(id, '/undo'), {}),
  redo: (id) => call('POST', game(id, '/redo'), {}),
  goto: (id, ply) => call('POST', game(id, '/goto'), { ply }),
  newGame: (id, rules) => call('POST', game(id, '/new'), { rules }),
  load: (id, bytes) => call('POST', game(id, '/load'), undefined, bytes),
  code: (id, code) => call('POST', game(id, '/code'), { code }),
  view: (id, body) => call('POST', game(id, '/view'), body),
  think: (id, budget) => call('POST', game(id, '/think'), budget),
  // The game's level and the sides its engine plays.
  engine: (id, body) => call('POST', game(id, '/engine'), body),
  hint: (id, budget) => call('POST', game(id, '/hint'), budget),
  analyze: (id, budget) => call('POST', game(id, '/analyze'), budget),
  analysis: (id) => call('GET', game(id, '/analysis')),
  // A stopped search plays its move so far, unless `play` is false.
  stop: (id, play = true) => call('POST', game(id, '/stop'), play ? {} : { play: false }),
  recordUrl: (id, ply) => game(id, ply === undefined ? '/record' : `/record?ply=${ply}`),
  eventsUrl: (id) => game(id, '/events'),
};
