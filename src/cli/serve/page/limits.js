// The engine's limits in the Engine and Analysis panels: filled from
// the server's own (or this browser's last), and read for a request.

const $ = (id) => document.getElementById(id);

// The engine's limits from the Engine panel, or why they cannot be
// used (in the boxes' own units); an empty box sets no limit.
export function budget() {
  const b = {};
  // A number box holds '' for text that is no number at all.
  if ($('time').validity.badInput) return { error: 'Time a move: not a number of seconds.' };
  if ($('iterations').validity.badInput) return { error: 'Iterations: not a whole number.' };
  const time = $('time').value.trim();
  const count = $('iterations').value.trim();
  if (time !== '') {
    const t = Number(time);
    if (!(t >= 0.05 && t <= 600)) return { error: `Time a move: ${time} is not 0.05 to 600 seconds.` };
    b.time_ms = Math.round(t * 1000);
  }
  if (count !== '') {
    const n = Number(count);
    if (!(Number.isInteger(n) && n >= 1 && n <= 1e9)) return { error: `Iterations: ${count} is not a whole number from 1 to 1,000,000,000.` };
    b.iterations = n;
  }
  return { budget: b };
}

// The limit fields start as the server's own (`cabra serve --time`),
// or as this browser last set them.
const LIMITS = 'cabra-limits';
export function fillLimits(info) {
  const fields = { time: 'time', iterations: 'iterations', an: 'an-iterations' };
  const server = {
    time: info.move_limits.time_ms ? String(info.move_limits.time_ms / 1000) : '',
    iterations: info.move_limits.iterations ? String(info.move_limits.iterations) : '',
    an: info.analysis_limits.iterations ? String(info.analysis_limits.iterations) : '',
  };
  const mine = JSON.parse(localStorage.getItem(LIMITS) || 'null') || {};
  for (const [k, id] of Object.entries(fields)) {
    $(id).value = k in mine ? mine[k] : server[k];
    $(id).addEventListener('change', () => {
      const now = JSON.parse(localStorage.getItem(LIMITS) || 'null') || {};
      now[k] = $(id).value;
      localStorage.setItem(LIMITS, JSON.stringify(now));
    });
  }
}
