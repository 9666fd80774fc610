// Sound effects, synthesised with the Web Audio API (no audio files): dice rattling, a bid,
// "your turn", a call, the reveal's count ticks, a lost die, a win and the countdown's last
// seconds. Muting is remembered in localStorage. Browsers only let a page make sound after
// the person has interacted with it, so the AudioContext starts on the first click or key.

import { loadPref, savePref } from "./api.js";

/** @type {AudioContext | null} */
let ctx = null;
/** @type {GainNode | null} */
let master = null;
let muted = loadPref("muted", false);
/** @type {AudioBuffer | null} */
let noiseBuffer = null;
/** @type {Set<(muted: boolean) => void>} */
const listeners = new Set();

function context() {
  if (ctx) return ctx;
  // (older Safari: the prefixed name)
  const AC = window.AudioContext || /** @type {Window & {webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext;
  if (!AC) return null;
  try {
    ctx = new AC();
  } catch {
    return null;
  }
  master = ctx.createGain();
  master.gain.value = 0.5;
  master.connect(ctx.destination);
  return ctx;
}

/** Create or wake the audio context (call from a user gesture). */
export function unlockAudio() {
  if (muted) return;
  const c = context();
  if (c && c.state === "suspended") c.resume().catch(() => {});
}

export function isMuted() {
  return muted;
}

/** @param {unknown} value */
export function setMuted(value) {
  muted = Boolean(value);
  savePref("muted", muted);
  if (!muted) unlockAudio();
  for (const fn of listeners) fn(muted);
}

/** @param {(muted: boolean) => void} fn */
export function onMuteChange(fn) {
  listeners.add(fn);
}

function ready() {
  if (muted || !ctx || ctx.state !== "running") return null;
  return ctx;
}

/**
 * A short tone: frequency (Hz, or [from, to] for a glide), duration, type, volume.
 * @param {AudioContext} c
 * @param {number} t0
 * @param {number | [number, number]} freq
 * @param {number} dur
 * @param {{type?: OscillatorType, gain?: number, attack?: number}} [options]
 */
function tone(c, t0, freq, dur, { type = "sine", gain = 0.3, attack = 0.005 } = {}) {
  const osc = c.createOscillator();
  const g = c.createGain();
  osc.type = type;
  const [f0, f1] = Array.isArray(freq) ? freq : [freq, freq];
  osc.frequency.setValueAtTime(f0, t0);
  if (f1 !== f0) osc.frequency.exponentialRampToValueAtTime(f1, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(g).connect(master);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

/**
 * A burst of filtered noise: a die hitting the table, a cup sliding.
 * @param {AudioContext} c
 * @param {number} t0
 * @param {number} dur
 * @param {{freq?: number, q?: number, gain?: number}} [options]
 */
function noise(c, t0, dur, { freq = 2500, q = 1.5, gain = 0.35 } = {}) {
  if (!noiseBuffer) {
    noiseBuffer = c.createBuffer(1, c.sampleRate * 0.5, c.sampleRate);
    const d = noiseBuffer.getChannelData(0);
    for (let i = 0; i < d.length; i++) d[i] = Math.random() * 2 - 1;
  }
  const src = c.createBufferSource();
  src.buffer = noiseBuffer;
  const filter = c.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const g = c.createGain();
  g.gain.setValueAtTime(gain, t0);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  src.connect(filter).connect(g).connect(master);
  src.start(t0, Math.random() * 0.3);
  src.stop(t0 + dur + 0.02);
}

/** @type {Record<string, (c: AudioContext, t: number, arg?: number) => void>} */
const EFFECTS = {
  // Dice rattling in a cup, then landing.
  roll(c, t) {
    for (let i = 0; i < 9; i++) noise(c, t + i * 0.045 + Math.random() * 0.02, 0.04, { freq: 1800 + Math.random() * 2200, gain: 0.25 });
    for (let i = 0; i < 3; i++) noise(c, t + 0.48 + i * 0.07, 0.06, { freq: 900 + i * 300, q: 3, gain: 0.3 });
  },
  bid(c, t) {
    noise(c, t, 0.05, { freq: 1200, q: 4, gain: 0.25 });
    tone(c, t, [520, 700], 0.12, { type: "triangle", gain: 0.18 });
  },
  turn(c, t) {
    tone(c, t, 660, 0.14, { type: "sine", gain: 0.22 });
    tone(c, t + 0.13, 880, 0.22, { type: "sine", gain: 0.22 });
  },
  call(c, t) {
    tone(c, t, [220, 110], 0.35, { type: "sawtooth", gain: 0.12 });
    noise(c, t, 0.25, { freq: 400, q: 0.8, gain: 0.4 });
  },
  lift(c, t) {
    noise(c, t, 0.3, { freq: 700, q: 0.7, gain: 0.18 });
  },
  count(c, t, step = 0) {
    tone(c, t, 500 * 2 ** (Math.min(step, 24) / 12), 0.09, { type: "square", gain: 0.07 });
  },
  lose(c, t) {
    tone(c, t, [440, 330], 0.18, { type: "triangle", gain: 0.2 });
    tone(c, t + 0.18, [330, 196], 0.35, { type: "triangle", gain: 0.2 });
  },
  win(c, t) {
    [523, 659, 784, 1047].forEach((f, i) => tone(c, t + i * 0.11, f, 0.25, { type: "triangle", gain: 0.2 }));
  },
  tick(c, t) {
    tone(c, t, 1200, 0.04, { type: "square", gain: 0.06 });
  },
};

/**
 * Play an effect by name (nothing when muted or before the first interaction).
 * @param {string} name
 * @param {number} [arg]
 */
export function play(name, arg) {
  const c = ready();
  const fx = EFFECTS[name];
  if (!c || !fx) return;
  try {
    fx(c, c.currentTime + 0.01, arg);
  } catch {
    // audio is a nicety; never let it break the page
  }
}

// Any first interaction unlocks audio.
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, unlockAudio, { capture: true, passive: true });
}
