// lightsout play: the page.  Presses happen here, exactly as lightsout.press computes them;
// the server (the JSON API of lightsout.play.api, and nothing else) makes random boards,
// solves, finds the fewest presses, quiet patterns and the proof of an unsolvable board.
// At 200 x 200 the grid holds 40,000 elements, so every change touches only the cells it
// changes (a press: at most 25), and overlays remember which cells they marked.
// The press rule is a stencil, as in lightsout.press: a press at p adds weights[i] (mod k) to the
// cell p + (i - centre), dropped past an open edge, wrapped on a torus; today's plus rule (and the
// σ game) keeps its neighbours a set of other cells.  Holes are no cells: never pressed, never lit.
"use strict";

(function () {
  const MAX_SIDE = 200;
  const MAX_STATES = 16;

  const $ = (id) => document.getElementById(id);
  const boardEl = $("board");
  const messageEl = $("message");

  // The named rules: weights with the pressed cell in the middle (lightsout.Stencil.named).
  const RULES = {
    plus: [[0, 1, 0], [1, 1, 1], [0, 1, 0]],
    x: [[1, 0, 1], [0, 1, 0], [1, 0, 1]],
    "3x3": [[1, 1, 1], [1, 1, 1], [1, 1, 1]],
    knight: [[0, 1, 0, 1, 0], [1, 0, 0, 0, 1], [0, 0, 1, 0, 0], [1, 0, 0, 0, 1], [0, 1, 0, 1, 0]],
    hex: [[0, 1, 1], [1, 1, 1], [1, 1, 0]],
  };
  const RULE_SIDE = 5;   // the custom rule's grid: 5 x 5, the pressed cell in the middle
  const MASKS = { hole: "holes", unpressable: "unpressable", free: "free_lights" };

  const game = {
    rows: 5, cols: 5, k: 2, torus: false, selfToggle: true,
    rule: "plus",
    custom: padRule(RULES.plus),  // the custom rule's weights, 5 x 5 (function declarations are hoisted)
    offsets: [],         // [[dr, dc, weight], ...] of the rule in force (the σ game: no centre)
    today: true,         // the rule is today's plus rule (or the σ game): neighbours form a set
    draw: "",            // "" (clicks press), or the mask a click toggles: hole, unpressable, free
    masks: { hole: new Uint8Array(25), unpressable: new Uint8Array(25), free: new Uint8Array(25) },
    cells: new Uint8Array(25),
    lit: 0,
    moves: 0,
    undo: [], redo: [],
    cursor: 0,
    editing: false,
    version: 0,          // bumped by every change of the board
    solution: null,      // {presses: Uint8Array, kind, fewest, nullity, count, note, version}
    showSolution: false,
    quiet: null,         // {patterns: [Uint8Array], index, nullity, count, truncated}
    proof: null,         // Uint8Array: the quiet pattern proving the board unsolvable
    hint: -1,
  };
  let cellEls = [];
  const marked = { sol: new Set(), quiet: new Set(), proof: new Set() };
  let zoom = 0;          // 0: fit to the window; otherwise a cell size in pixels

  // ---- rules: the same presses as lightsout.press -------------------------------------
  function padRule(weights) {  // a named rule on the 5 x 5 grid of the custom rule
    const out = new Uint8Array(RULE_SIDE * RULE_SIDE);
    const h = weights.length, w = weights[0].length;
    const top = (RULE_SIDE - h) / 2, left = (RULE_SIDE - w) / 2;
    weights.forEach((row, r) => row.forEach((v, c) => { out[(top + r) * RULE_SIDE + left + c] = v; }));
    return out;
  }

  function ruleWeights() {  // rows of weights, the pressed cell in the middle
    if (game.rule !== "custom") return RULES[game.rule];
    const rows = [];
    for (let r = 0; r < RULE_SIDE; r++) rows.push(Array.from(game.custom.subarray(r * RULE_SIDE, (r + 1) * RULE_SIDE)));
    return rows;
  }

  function setRule() {  // game.offsets and game.today from the rule, the σ game and k
    const weights = ruleWeights();
    const h = weights.length, w = weights[0].length, cr = (h - 1) / 2, cc = (w - 1) / 2;
    const offsets = [];
    weights.forEach((row, r) => row.forEach((v, c) => {
      const weight = (r === cr && c === cc && !game.selfToggle) ? 0 : v % game.k;
      if (weight) offsets.push([r - cr, c - cc, weight]);
    }));
    game.offsets = offsets;
    // today's rule, however it is drawn: arms of weight 1 one step along each axis, the centre 0 or 1
    const key = offsets.map(([dr, dc, v]) => `${dr},${dc},${v}`).sort().join(" ");
    game.today = key === "-1,0,1 0,-1,1 0,0,1 0,1,1 1,0,1" || key === "-1,0,1 0,-1,1 0,1,1 1,0,1";
  }

  function neighbours(i) {
    const { rows, cols, torus, selfToggle } = game;
    const r = Math.floor(i / cols), c = i % cols;
    const out = new Set();
    if (selfToggle) out.add(i);
    const steps = [[-1, 0], [1, 0], [0, -1], [0, 1]];
    for (const [dr, dc] of steps) {
      let rr = r + dr, cc = c + dc;
      if (torus) {
        rr = (rr + rows) % rows;
        cc = (cc + cols) % cols;
      } else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) {
        continue;
      }
      const j = rr * cols + cc;
      if (j !== i) out.add(j);  // neighbours form a set: a wrap never adds the cell itself
    }
    return out;
  }

  function freeLights() { return game.masks.free.some((v) => v); }
  function required(i) { return !game.masks.hole[i] && !game.masks.free[i]; }
  function pressable(i) { return !game.masks.hole[i] && !game.masks.unpressable[i]; }

  function setCell(i, value) {
    const old = game.cells[i];
    if (old === value) return;
    game.cells[i] = value;
    if (required(i)) game.lit += (value !== 0) - (old !== 0);
    cellEls[i].dataset.state = String(value);
  }

  function recount() {  // the lit required lights (after a mask changed)
    let lit = 0;
    for (let i = 0; i < game.cells.length; i++) if (game.cells[i] && required(i)) lit++;
    game.lit = lit;
  }

  function pressCell(i, times) {
    if (game.today) {
      for (const j of neighbours(i)) if (!game.masks.hole[j]) setCell(j, (game.cells[j] + times) % game.k);
      return;
    }
    const { rows, cols, torus } = game;
    const r = Math.floor(i / cols), c = i % cols;
    for (const [dr, dc, weight] of game.offsets) {
      let rr = r + dr, cc = c + dc;
      if (torus) {
        rr = ((rr % rows) + rows) % rows;
        cc = ((cc % cols) + cols) % cols;
      } else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) {
        continue;
      }
      const j = rr * cols + cc;
      if (!game.masks.hole[j]) setCell(j, (game.cells[j] + weight * times) % game.k);
    }
  }

  // ---- building and drawing ------------------------------------------------------------
  function palette(k) {
    // state 0 dark, k-1 the brightest; in between, blue -> violet -> amber
    const colours = [];
    for (let s = 0; s < k; s++) {
      if (s === 0) { colours.push("#232b3b"); continue; }
      const t = k === 2 ? 1 : (s - 1) / (k - 2);
      const hue = 215 - 170 * t;
      const light = 52 + 12 * t;
      colours.push(`hsl(${hue.toFixed(0)} 92% ${light.toFixed(0)}%)`);
    }
    return colours;
  }

  function build() {
    const { rows, cols } = game;
    const parts = [];
    for (let r = 0; r < rows; r++) {
      parts.push('<div class="row">');
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c;
        const classes = Object.keys(MASKS).filter((m) => game.masks[m][i]).join(" ");
        parts.push(`<div class="cell${classes ? " " + classes : ""}" data-row="${r}" data-col="${c}" data-state="${game.cells[i]}"></div>`);
      }
      parts.push("</div>");
    }
    boardEl.style.setProperty("--cols", String(cols));
    boardEl.innerHTML = parts.join("");
    cellEls = Array.from(boardEl.querySelectorAll(".cell"));
    const colours = palette(game.k);
    for (let s = 0; s < MAX_STATES; s++) boardEl.style.setProperty(`--s${s}`, colours[Math.min(s, game.k - 1)]);
    boardEl.classList.toggle("counts", game.k > 2);
    for (const name in marked) marked[name].clear();
    game.hint = -1;
    if (game.cursor >= rows * cols) game.cursor = 0;
    cellEls[game.cursor].classList.add("cursor");
    shapeLabel();
    fit();
  }

  function shapeLabel() {
    const rule = game.rule === "plus" ? "" : game.rule === "custom" ? ", custom rule" : `, ${game.rule} rule`;
    $("shape-label").textContent = `${game.rows} × ${game.cols}${rule}${game.torus ? ", torus" : ""}` +
      `${game.selfToggle ? "" : ", σ-game"}${game.k > 2 ? `, k = ${game.k}` : ""}`;
  }

  function fit() {
    const { rows, cols } = game;
    let size = zoom;
    if (!size) {
      const wrap = $("board-wrap");
      const width = wrap.clientWidth - 16;
      const top = wrap.getBoundingClientRect().top + window.scrollY;
      const height = Math.max(240, window.innerHeight - top - 24);
      size = Math.floor(Math.min(56, width / cols, height / rows));
    }
    size = Math.max(3, Math.min(96, size));
    const gap = size >= 24 ? 4 : size >= 12 ? 2 : size >= 7 ? 1 : 0;
    const cell = Math.max(2, size - gap);
    boardEl.style.setProperty("--cell", `${cell}px`);
    boardEl.style.setProperty("--gap", `${gap}px`);
    boardEl.style.setProperty("--radius", `${Math.round(cell * 0.14)}px`);
    boardEl.classList.toggle("big", cell >= 24);
  }

  // Overlay `name` on the cells `indices` (class `name`; with k > 2 the count in data-`name`).
  function mark(name, indices, counts) {
    const old = marked[name];
    const next = new Set(indices);
    for (const i of old) if (!next.has(i)) { cellEls[i].classList.remove(name); delete cellEls[i].dataset[name]; }
    for (const i of next) {
      cellEls[i].classList.add(name);
      if (counts) cellEls[i].dataset[name] = String(counts[i]);
    }
    marked[name] = next;
  }

  function nonzero(array) {
    const out = [];
    for (let i = 0; i < array.length; i++) if (array[i]) out.push(i);
    return out;
  }

  function setHint(i) {
    if (game.hint >= 0 && cellEls[game.hint]) cellEls[game.hint].classList.remove("hint");
    game.hint = i;
    if (i >= 0) cellEls[i].classList.add("hint");
  }

  function moveCursor(i) {
    cellEls[game.cursor].classList.remove("cursor");
    game.cursor = i;
    const el = cellEls[i];
    el.classList.add("cursor");
    el.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function announceCursor() {  // for screen readers: where the cursor is and what is there
    const i = game.cursor, value = game.cells[i];
    let state = game.k === 2 ? (value ? "lit" : "dark") : `state ${value} of ${game.k - 1}`;
    if (game.masks.hole[i]) state = "a hole";
    else if (game.masks.unpressable[i]) state += ", may not be pressed";
    if (!game.masks.hole[i] && game.masks.free[i]) state += ", need not end dark";
    const extra = i === game.hint ? ", the hint" : marked.sol.has(i) ? ", in the solution" : "";
    $("cursor-info").textContent = `Row ${Math.floor(i / game.cols) + 1}, column ${i % game.cols + 1}: ${state}${extra}`;
  }

  function say(text, tone) {
    messageEl.textContent = text;
    messageEl.className = tone || "";
  }

  function updateCounters() {
    $("moves").textContent = String(game.moves);
    $("lit").textContent = String(game.lit);
    $("undo").disabled = game.undo.length === 0;
    $("redo").disabled = game.redo.length === 0;
  }

  function drawSolution() {
    const s = game.solution;
    if (game.showSolution && s) mark("sol", nonzero(s.presses), game.k > 2 ? s.presses : null);
    else mark("sol", []);
  }

  function drawQuiet() {
    const q = game.quiet;
    const nav = $("quiet-nav");
    if (!q || q.patterns.length === 0) {
      mark("quiet", []);
      nav.hidden = true;
      $("quiet").setAttribute("aria-pressed", String(Boolean(q)));
      return;
    }
    const pattern = q.patterns[q.index];
    mark("quiet", nonzero(pattern), game.k > 2 ? pattern : null);
    nav.hidden = false;
    $("quiet").setAttribute("aria-pressed", "true");
    $("quiet-label").textContent = `pattern ${q.index + 1} of ${q.patterns.length}${q.truncated ? "+" : ""}`;
    $("quiet-prev").disabled = q.patterns.length < 2;
    $("quiet-next").disabled = q.patterns.length < 2;
  }

  function drawProof() {
    mark("proof", game.proof ? nonzero(game.proof) : [], game.k > 2 ? game.proof : null);
  }

  // ---- the API -------------------------------------------------------------------------
  let pending = 0;
  async function api(path, payload) {
    pending++;
    boardEl.classList.add("busy");
    boardEl.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(payload),
      });
      let data;
      try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
      if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
      return data;
    } finally {
      if (--pending === 0) { boardEl.classList.remove("busy"); boardEl.setAttribute("aria-busy", "false"); }
    }
  }

  function rules() {
    const out = { torus: game.torus, self_toggle: game.selfToggle, states: game.k };
    if (game.rule !== "plus") out.stencil = game.rule === "custom" ? ruleWeights() : game.rule;
    for (const [mask, field] of Object.entries(MASKS)) {
      if (game.masks[mask].some((v) => v)) out[field] = rowsOf(game.masks[mask]);
    }
    return out;
  }

  function rowsOf(values) {
    const rows = [];
    for (let r = 0; r < game.rows; r++) rows.push(Array.from(values.subarray(r * game.cols, (r + 1) * game.cols)));
    return rows;
  }

  function boardRows() {
    return rowsOf(game.cells);
  }

  function flat(rows) {
    const out = new Uint8Array(game.rows * game.cols);
    let i = 0;
    for (const row of rows) for (const v of row) out[i++] = v;
    return out;
  }

  function innerProduct(pattern) {
    let total = 0;
    for (let i = 0; i < pattern.length; i++) total = (total + pattern[i] * game.cells[i]) % game.k;
    return total;
  }

  function proofMessage() {
    const pattern = game.proof;
    if (game.proofKind === "weights on the lights") {  // a one-way rule or masks: the left kernel
      const weights = game.k === 2 ? "Count the lit ringed lights" :
        "Give each ringed light the weight it shows and add up weight × light";
      return `This board cannot be turned dark. Proof: the ringed lights carry weights that no allowed ` +
        `press changes in sum (mod ${game.k}). ${weights}: on this board the sum is ${innerProduct(pattern)}, ` +
        `not 0, and on a dark board it is 0, so no presses reach it.`;
    }
    if (game.k === 2) {
      let covered = 0;
      for (let i = 0; i < pattern.length; i++) if (pattern[i] && game.cells[i]) covered++;
      return `This board cannot be turned dark. Proof: the ringed cells are a quiet pattern (pressing all of ` +
        `them changes no light) and they cover ${covered} lit cell${covered === 1 ? "" : "s"}, an odd number. ` +
        `Every press keeps that number's parity, so it never reaches 0.`;
    }
    return `This board cannot be turned dark. Proof: the ringed cells, each pressed as many times as it ` +
      `shows, are a quiet pattern (together they change no light), and the sum of pattern × light over the ` +
      `board is ${innerProduct(pattern)}, not 0 (mod ${game.k}); no press changes that sum, so it never reaches 0.`;
  }

  // Solve the current board (or use the solution kept since): resolves to the solution or null.
  async function currentSolution() {
    if (game.solution && game.solution.version === game.version) return game.solution;
    if (game.proof) { say(proofMessage(), "bad"); return null; }
    const version = game.version;
    say("Solving…", "busy");
    const data = await api("/api/solve", { board: boardRows(), ...rules() });
    if (version !== game.version) return currentSolution();  // the board changed meanwhile: ask again
    if (!data.solvable) {
      const proof = data.proof || data.quiet_pattern;
      game.proof = proof ? flat(proof) : new Uint8Array(game.cells.length);
      game.proofKind = data.proof_kind;
      drawProof();
      say(proofMessage(), "bad");
      return null;
    }
    game.solution = {
      presses: flat(data.presses), kind: data.kind, fewest: data.fewest, nullity: data.nullity,
      count: data.count, note: data.note, version, trimmed: false,
    };
    return game.solution;
  }

  function solutionWords(s) {
    let total = 0;
    for (const v of s.presses) total += v;
    const solutions = s.count === "1" ? "the only solution" : `one of ${s.count} solutions, nullity ${s.nullity}`;
    if (s.kind === "fewest") return `${total} press${total === 1 ? "" : "es"} left, the fewest (proven; ${solutions})`;
    return `${total} press${total === 1 ? "" : "es"} left ${s.trimmed ? "of" : "in"} the canonical solution ` +
      `(${solutions}); not the proven fewest: ${s.note}`;
  }

  // ---- actions -------------------------------------------------------------------------
  function changed(keepSolution) {
    game.version++;
    if (game.solution) {
      if (keepSolution) game.solution.version = game.version;
      else game.solution = null;
    }
    setHint(-1);
    updateCounters();
    drawSolution();
    if (game.showSolution && !game.solution) refreshSolution();
  }

  function doPress(i, record) {
    if (!pressable(i)) {
      say(game.masks.hole[i] ? "That cell is a hole: it is not part of the board." :
        "That cell may not be pressed (it is marked unpressable).", "info");
      return;
    }
    pressCell(i, 1);
    game.moves++;
    if (record) { game.undo.push({ t: "p", i }); game.redo.length = 0; }
    // A kept solution minus this press solves the new board, and stays the fewest
    // (a shorter one plus this press would beat the old minimum).
    const s = game.solution;
    let keep = false;
    if (s && s.version === game.version && s.presses[i] > 0) {
      s.presses[i]--;
      s.trimmed = true;
      if (s.fewest !== null) s.fewest--;
      keep = true;
    }
    changed(keep);
    if (game.lit === 0 && game.moves > 0) say(`Solved in ${game.moves} move${game.moves === 1 ? "" : "s"}!`, "good");
    else if (game.proof) say(proofMessage(), "bad");
    else if (!game.showSolution) say("");
    else if (keep) say(solutionWords(s), "info");
  }

  function doEdit(i, value, record) {
    if (record) { game.undo.push({ t: "e", i, from: game.cells[i], to: value }); game.redo.length = 0; }
    setCell(i, value);
    game.proof = null;
    drawProof();
    changed(false);
    say("");
  }

  function pressMany(list, undoing) {  // [[cell, times], ...]
    for (const [i, times] of list) pressCell(i, undoing ? game.k - times : times);
  }

  function undo() {
    const step = game.undo.pop();
    if (!step) return;
    game.redo.push(step);
    if (step.t === "p") { pressCell(step.i, game.k - 1); game.moves--; }
    else if (step.t === "e") { setCell(step.i, step.from); game.proof = null; drawProof(); }
    else { pressMany(step.list, true); game.moves -= step.moves; }
    changed(false);
    say("Undone.", "info");
  }

  function redo() {
    const step = game.redo.pop();
    if (!step) return;
    game.undo.push(step);
    if (step.t === "p") { pressCell(step.i, 1); game.moves++; }
    else if (step.t === "e") { setCell(step.i, step.to); game.proof = null; drawProof(); }
    else { pressMany(step.list, false); game.moves += step.moves; }
    changed(false);
    say("Redone.", "info");
  }

  function setBoard(values, message) {
    for (let i = 0; i < values.length; i++) setCell(i, game.masks.hole[i] ? 0 : values[i]);
    game.moves = 0;
    game.undo.length = 0;
    game.redo.length = 0;
    game.proof = null;
    drawProof();
    changed(false);
    say(message || "", "info");
  }

  function readSettings() {
    const clamp = (v, lo, hi, dflt) => { const n = parseInt(v, 10); return Number.isFinite(n) ? Math.max(lo, Math.min(hi, n)) : dflt; };
    const rows = clamp($("rows").value, 1, MAX_SIDE, 5), cols = clamp($("cols").value, 1, MAX_SIDE, 5);
    const k = clamp($("states").value, 2, MAX_STATES, 2);
    $("rows").value = rows; $("cols").value = cols; $("states").value = k;
    const rule = $("rule").value in RULES || $("rule").value === "custom" ? $("rule").value : "plus";
    return { rows, cols, k, torus: $("torus").checked, selfToggle: !$("sigma").checked, rule };
  }

  // A new rule, mask or k: what was computed for the old one (and its undo history) no longer holds.
  function forget() {
    game.solution = null;
    game.quiet = null;
    game.proof = null;
    game.undo.length = 0;
    game.redo.length = 0;
    drawQuiet();
    drawProof();
  }

  function ruleChanged() {
    const s = readSettings();
    Object.assign(game, { rule: s.rule, selfToggle: s.selfToggle, torus: s.torus });
    for (let i = 0; i < game.custom.length; i++) game.custom[i] %= game.k;
    setRule();
    drawRuleGrid();
    shapeLabel();
    forget();
    changed(false);
    const shown = game.rule === "custom" ? "your rule (click the grid to change it)" : `the ${game.rule} rule`;
    say(`Presses now follow ${shown}.`, "info");
  }

  function drawRuleGrid() {
    const grid = $("rule-grid");
    $("rule-editor").hidden = game.rule !== "custom";
    if (!grid.children.length) {
      const parts = [];
      for (let i = 0; i < RULE_SIDE * RULE_SIDE; i++) {
        const r = Math.floor(i / RULE_SIDE), c = i % RULE_SIDE;
        const centre = r === (RULE_SIDE - 1) / 2 && c === (RULE_SIDE - 1) / 2;
        parts.push(`<button type="button" class="rule-cell${centre ? " centre" : ""}" data-i="${i}" ` +
          `aria-label="row ${r - 2}, column ${c - 2} from the pressed cell${centre ? " (the pressed cell)" : ""}"></button>`);
      }
      grid.innerHTML = parts.join("");
    }
    const weights = game.rule === "custom" ? game.custom : padRule(RULES[game.rule]);
    for (const el of grid.children) {
      const v = weights[Number(el.dataset.i)];
      el.dataset.weight = String(v);
      el.textContent = game.k > 2 && v ? String(v) : "";
    }
  }

  function toggleMask(i) {
    const mask = game.draw;
    const on = game.masks[mask][i] ? 0 : 1;
    game.masks[mask][i] = on;
    cellEls[i].classList.toggle(mask, Boolean(on));
    if (mask === "hole" && on) setCell(i, 0);
    recount();
    forget();
    changed(false);
    const names = { hole: "a hole", unpressable: "a cell that may not be pressed", free: "a light that need not end dark" };
    say(`${on ? "Marked" : "Unmarked"}: row ${Math.floor(i / game.cols) + 1}, column ${i % game.cols + 1} is ` +
      `${on ? "" : "no longer "}${names[mask]}.`, "info");
  }

  function newGame(fill) {
    const s = readSettings();
    const reshaped = s.rows !== game.rows || s.cols !== game.cols || !cellEls.length;
    const resized = reshaped || s.k !== game.k;
    Object.assign(game, s);
    for (let i = 0; i < game.custom.length; i++) game.custom[i] %= game.k;
    setRule();
    drawRuleGrid();
    game.solution = null;
    game.quiet = null;
    game.proof = null;
    if (reshaped) for (const m in MASKS) game.masks[m] = new Uint8Array(s.rows * s.cols);
    if (resized) {
      game.cells = new Uint8Array(s.rows * s.cols);
      game.lit = 0;
      build();
    } else {
      shapeLabel();
    }
    drawQuiet();
    setBoard(new Uint8Array(s.rows * s.cols).fill(fill), fill ? "Every light is on. Turn them all off." : "");
  }

  async function randomBoard() {
    const s = readSettings();
    if (s.rows !== game.rows || s.cols !== game.cols || s.k !== game.k || s.torus !== game.torus ||
        s.selfToggle !== game.selfToggle || s.rule !== game.rule) newGame(0);
    try {
      const data = await api("/api/random", { rows: game.rows, columns: game.cols, ...rules() });
      setBoard(flat(data.board), "A random board, solvable by construction. Turn every light off.");
    } catch (e) { say(`Could not make a random board: ${e.message}`, "bad"); }
  }

  async function hint() {
    if (game.lit === 0) { say("The board is dark: nothing to press.", "good"); return; }
    try {
      const s = await currentSolution();
      if (!s) return;
      let next = -1;
      for (let i = 0; i < s.presses.length; i++) if (s.presses[i]) { next = i; break; }
      if (next < 0) return;
      setHint(next);
      moveCursor(next);
      boardEl.focus({ preventScroll: true });
      const r = Math.floor(next / game.cols) + 1, c = next % game.cols + 1;
      say(`Hint: press row ${r}, column ${c}. ${solutionWords(s)}.`, "info");
    } catch (e) { say(`Could not solve: ${e.message}`, "bad"); }
  }

  async function refreshSolution() {
    try {
      const s = await currentSolution();
      drawSolution();
      if (s) say(game.lit === 0 ? "The board is dark." : `Solution shown: ${solutionWords(s)}.`, "info");
    } catch (e) { say(`Could not solve: ${e.message}`, "bad"); }
  }

  function toggleSolution() {
    game.showSolution = !game.showSolution;
    $("solve").setAttribute("aria-pressed", String(game.showSolution));
    drawSolution();
    if (game.showSolution) refreshSolution();
    else say("");
  }

  async function toggleQuiet() {
    if (game.quiet) { game.quiet = null; drawQuiet(); say(""); return; }
    try {
      const data = await api("/api/quiet", { rows: game.rows, columns: game.cols, ...rules() });
      if (data.nullity === 0) {
        game.quiet = null;
        drawQuiet();
        say(`No quiet patterns on this board: only pressing nothing changes nothing, so every ` +
          `board of this size has exactly one solution.`, "info");
        return;
      }
      game.quiet = { patterns: data.patterns.map(flat), index: 0, nullity: data.nullity, count: data.count,
        truncated: data.truncated };
      drawQuiet();
      say(`${data.count} quiet patterns (nullity ${data.nullity}): pressing every ringed cell changes no light` +
        `${freeLights() ? " that must go out" : ""}. ` +
        `Step through the ${data.patterns.length}${data.truncated ? " first" : ""} generators with [ and ].`, "info");
    } catch (e) { say(`Could not get the quiet patterns: ${e.message}`, "bad"); }
  }

  function stepQuiet(delta) {
    const q = game.quiet;
    if (!q || !q.patterns.length) return;
    q.index = (q.index + delta + q.patterns.length) % q.patterns.length;
    drawQuiet();
  }

  function pressQuiet() {
    const q = game.quiet;
    if (!q) return;
    const list = [];
    let moves = 0;
    q.patterns[q.index].forEach((times, i) => { if (times) { list.push([i, times]); moves += times; } });
    pressMany(list, false);
    game.moves += moves;
    game.undo.push({ t: "m", list, moves });
    game.redo.length = 0;
    changed(false);
    say(`Pressed ${moves} cells of the pattern: no light${freeLights() ? " that must go out" : ""} changed.`, "info");
  }

  function activate(i) {
    if (game.draw) toggleMask(i);
    else if (game.editing && game.masks.hole[i]) say("That cell is a hole: it holds no light.", "info");
    else if (game.editing) doEdit(i, (game.cells[i] + 1) % game.k, true);
    else doPress(i, true);
  }

  // ---- events --------------------------------------------------------------------------
  boardEl.addEventListener("click", (event) => {
    const el = event.target.closest(".cell");
    if (!el) return;
    const i = Number(el.dataset.row) * game.cols + Number(el.dataset.col);
    boardEl.classList.remove("keys");
    moveCursor(i);
    activate(i);
  });

  $("settings").addEventListener("submit", (event) => { event.preventDefault(); newGame(1); });
  for (const id of ["torus", "sigma", "states"]) $(id).addEventListener("change", () => newGame(1));
  $("rule").addEventListener("change", ruleChanged);
  $("rule-grid").addEventListener("click", (event) => {
    const el = event.target.closest(".rule-cell");
    if (!el) return;
    const i = Number(el.dataset.i);
    game.custom[i] = (game.custom[i] + 1) % game.k;  // 0, 1, ..., k-1, 0: the weight a press adds there
    ruleChanged();
  });
  $("draw").addEventListener("change", () => {
    game.draw = $("draw").value in MASKS ? $("draw").value : "";
    boardEl.classList.toggle("drawing", Boolean(game.draw));
    const what = { hole: "holes (cells that are not part of the board)", unpressable: "cells that may not be pressed",
      free: "lights that need not end dark" };
    say(game.draw ? `Drawing ${what[game.draw]}: a click marks or unmarks a cell.` : "Clicks press again.", "info");
  });
  $("clear-masks").addEventListener("click", () => {
    for (const m in MASKS) game.masks[m].fill(0);
    build();
    recount();
    forget();
    changed(false);
    say("No holes, no unpressable cells, no free lights.", "info");
  });
  $("random").addEventListener("click", randomBoard);
  $("alllit").addEventListener("click", () => newGame(1));
  $("clear").addEventListener("click", () => newGame(0));
  $("edit").addEventListener("click", () => {
    game.editing = !game.editing;
    $("edit").setAttribute("aria-pressed", String(game.editing));
    boardEl.classList.toggle("editing", game.editing);
    say(game.editing ? "Edit mode: a click changes only that light. Press E again to play." : "Play mode.", "info");
  });
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", toggleSolution);
  $("quiet").addEventListener("click", toggleQuiet);
  $("quiet-prev").addEventListener("click", () => stepQuiet(-1));
  $("quiet-next").addEventListener("click", () => stepQuiet(1));
  $("quiet-press").addEventListener("click", pressQuiet);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("zoom-in").addEventListener("click", () => zoomBy(1));
  $("zoom-out").addEventListener("click", () => zoomBy(-1));
  $("zoom-fit").addEventListener("click", () => { zoom = 0; fit(); });
  let resizeTimer = 0;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(() => { if (!zoom) fit(); }, 100); });

  function zoomBy(direction) {
    const current = parseFloat(boardEl.style.getPropertyValue("--cell")) + parseFloat(boardEl.style.getPropertyValue("--gap"));
    zoom = Math.max(3, Math.min(96, Math.round(direction > 0 ? current * 1.25 + 1 : current / 1.25)));
    fit();
    cellEls[game.cursor].scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (event.altKey || event.metaKey) return;
    const key = event.key;
    const ctrl = event.ctrlKey;
    if (ctrl) {
      if (key === "z" || key === "Z") { event.shiftKey ? redo() : undo(); event.preventDefault(); }
      else if (key === "y" || key === "Y") { redo(); event.preventDefault(); }
      return;
    }
    const onButton = tag === "BUTTON" || tag === "SUMMARY";
    const step = event.shiftKey ? 10 : 1;
    const r = Math.floor(game.cursor / game.cols), c = game.cursor % game.cols;
    const moves = {
      ArrowUp: [Math.max(0, r - step), c], ArrowDown: [Math.min(game.rows - 1, r + step), c],
      ArrowLeft: [r, Math.max(0, c - step)], ArrowRight: [r, Math.min(game.cols - 1, c + step)],
      Home: [r, 0], End: [r, game.cols - 1],
    };
    if (key in moves) {
      const [nr, nc] = moves[key];
      boardEl.classList.add("keys");
      if (document.activeElement !== boardEl) boardEl.focus({ preventScroll: true });
      moveCursor(nr * game.cols + nc);
      announceCursor();
      event.preventDefault();
      return;
    }
    if ((key === " " || key === "Enter") && !onButton) {
      boardEl.classList.add("keys");
      activate(game.cursor);
      announceCursor();
      event.preventDefault();
      return;
    }
    const actions = {
      h: hint, s: toggleSolution, q: toggleQuiet, u: undo, r: redo, n: randomBoard,
      a: () => newGame(1), c: () => newGame(0), e: () => $("edit").click(),
      "[": () => stepQuiet(-1), "]": () => stepQuiet(1),
      "+": () => zoomBy(1), "=": () => zoomBy(1), "-": () => zoomBy(-1), "0": () => { zoom = 0; fit(); },
      Escape: () => {
        setHint(-1);
        if (game.showSolution) toggleSolution();
        if (game.quiet) { game.quiet = null; drawQuiet(); }
        say("");
      },
    };
    const action = actions[key] || actions[key.toLowerCase()];
    if (action) { action(); event.preventDefault(); }
  });

  // ---- start: settings from the address (?rows=&cols=&states=&torus=1&sigma=1&rule=x&board=random|dark|lit)
  const params = new URLSearchParams(window.location.search);
  if (params.has("rule")) $("rule").value = params.get("rule");
  if (params.has("rows")) $("rows").value = params.get("rows");
  if (params.has("cols")) $("cols").value = params.get("cols");
  if (params.has("states")) $("states").value = params.get("states");
  $("torus").checked = params.get("torus") === "1";
  $("sigma").checked = params.get("sigma") === "1";
  const start = params.get("board");
  if (start === "random") { newGame(0); randomBoard(); }
  else newGame(start === "dark" ? 0 : 1);
  boardEl.focus({ preventScroll: true });
  document.body.dataset.ready = "true";
})();
