// The page of `wiezen-sim serve`: forms, card grids, one WebSocket per computation, result tables.
// Every number shown comes from the server (the package's advisors); this file only lays them out.
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const HAND_SIZE = { wiezen: 13, romanian: 8 };

const $ = (id) => document.getElementById(id);
const fmt = (x, digits) => (x === null || x === undefined ? "" : x.toFixed(digits));
const signed = (x, digits) => (x === null || x === undefined ? "" : (x >= 0 ? "+" : "") + x.toFixed(digits));
const interval = (lo, hi, digits) => (lo === null || lo === undefined ? "" : `${fmt(lo, digits)} – ${fmt(hi, digits)}`);

function cell(row, text, attrs = {}) {
  const td = document.createElement("td");
  td.textContent = text;
  for (const [k, v] of Object.entries(attrs)) td.setAttribute(k, v);
  row.appendChild(td);
  return td;
}

function header(table, names) {
  table.replaceChildren();
  const tr = table.createTHead().insertRow();
  for (const name of names) {
    const th = document.createElement("th");
    th.textContent = name;
    tr.appendChild(th);
  }
  return table.createTBody();
}

class Panel {
  constructor(kind) {
    this.kind = kind;
    this.form = $(`${kind}-form`);
    this.touched = new Set();
    this.checkSeq = 0;
    this.socket = null;
    this.timer = null;
    this.form.addEventListener("input", (e) => this.edited(e.target.name));
    this.form.addEventListener("change", (e) => this.edited(e.target.name));
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
    $(`${kind}-stop`).addEventListener("click", () => this.stop());
    for (const button of $(`${kind}-grid`).querySelectorAll(".card")) {
      button.addEventListener("click", () => this.clicked(button.dataset.card));
    }
  }

  field(name) { return this.form.elements[name]; }
  pickMode() { return this.form.querySelector(`input[name=${this.kind}-pick]:checked`).value; }
  values() {
    const out = {};
    for (const el of this.form.elements) {
      if (el.name && !el.disabled && !el.name.endsWith("-pick")) out[el.name] = el.value.trim();
    }
    return out;
  }

  edited(name) {
    if (!name || name.endsWith("-pick")) return;
    this.touched.add(name);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), 150);
  }

  clicked(card) {
    const key = this.pickMode() === "turned" ? (this.kind === "wiezen" ? "turned" : "trump") : "hand";
    if (key === "hand") {
      const grid = $(`${this.kind}-grid`);
      const button = grid.querySelector(`[data-card="${card}"]`);
      button.classList.toggle("in-hand");
      // the grid's order (suits S H D C, high to low) is the CLI's "cards" form: AS KS … 2C
      const cards = [...grid.querySelectorAll(".card.in-hand")].map((b) => b.dataset.card);
      this.field("hand").value = cards.join(" ");
      this.count();
    } else {
      this.field(key).value = card;
    }
    this.edited(key);
  }

  async check() {
    const seq = ++this.checkSeq;
    const params = new URLSearchParams(this.values()).toString();
    let answer;
    try {
      answer = await (await fetch(`/api/check/${this.kind}?${params}`)).json();
    } catch {
      $(`${this.kind}-form-error`).textContent = "The server does not answer: is `wiezen-sim serve` still running?";
      return;
    }
    // a later check is under way, or the form changed meanwhile (a click while this one travelled)
    if (seq !== this.checkSeq || new URLSearchParams(this.values()).toString() !== params) return;
    this.showErrors(answer.errors, this.touched);
    // cards: null when the hand text does not parse (the grid then keeps its marks); an empty text clears it
    this.mark(this.field("hand").value.trim() === "" ? [] : answer.cards, answer.turned);
  }

  mark(cards, turned) {
    const grid = $(`${this.kind}-grid`);
    for (const b of grid.querySelectorAll(".card")) {
      if (cards !== null) b.classList.toggle("in-hand", cards.includes(b.dataset.card));
      b.classList.toggle("turned", b.dataset.card === turned);
    }
    this.count();
  }

  count() {
    const n = $(`${this.kind}-grid`).querySelectorAll(".card.in-hand").length;
    $(`${this.kind}-count`).textContent = this.kind === "wiezen"
      ? `${n} of 13 cards` : `${n} card${n === 1 ? "" : "s"} (a ${n}-card deal; 1 to 8)`;
  }

  showErrors(errors, shown) {
    for (const span of this.form.querySelectorAll(".error")) {
      const name = span.dataset.for;
      const message = shown.has(name) ? errors[name] || "" : "";
      span.textContent = message;
      this.field(name).classList.toggle("invalid", message !== "");
    }
  }

  busy(running) {
    $(`${this.kind}-run`).disabled = running;
    $(`${this.kind}-stop`).disabled = !running;
    $(`${this.kind}-progress`).hidden = !running;
  }

  status(text) { $(`${this.kind}-status`).textContent = text; }

  run() {
    this.stop();
    $(`${this.kind}-form-error`).textContent = "";
    $(`${this.kind}-result`).hidden = true; // an older result would not match the form any more
    const values = this.values();
    const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${this.kind}`);
    this.socket = socket;
    this.busy(true);
    this.status("starting…");
    const progress = $(`${this.kind}-progress`);
    progress.removeAttribute("value");
    socket.onopen = () => socket.send(JSON.stringify(values));
    let answered = false;
    let note = "";
    socket.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      answered = answered || !["started", "progress"].includes(msg.type);
      if (msg.type === "invalid") {
        for (const name of Object.keys(msg.errors)) this.touched.add(name);
        this.showErrors(msg.errors, this.touched);
        $(`${this.kind}-form-error`).textContent = "Fix the marked fields first.";
        this.status("");
      } else if (msg.type === "started") {
        this.seed = msg.seed; // a blank seed field stays blank (a new draw each run); the link holds the seed
        this.samples = msg.samples;
        this.setUrl(values, msg.seed);
        if (this.kind === "wiezen") progress.max = msg.samples;
        // Wiezen: samples is a ceiling (the advisor stops once the answer is clear)
        const upTo = this.kind === "wiezen" ? "up to " : "";
        this.status(`running ${upTo}${msg.samples.toLocaleString()} sampled deals, seed ${msg.seed}…`);
      } else if (msg.type === "progress") {
        progress.value = msg.done;
        if (msg.note) note = msg.note; // after a round: how far the stop rule is from stopping
        const deals = `${msg.done.toLocaleString()} deals of at most ${this.samples.toLocaleString()}`;
        this.status(note ? `${deals}; ${note}` : deals);
      } else if (msg.type === "error") {
        $(`${this.kind}-form-error`).textContent = msg.message;
        this.status("");
      } else if (msg.type === "stopped") {
        this.status(msg.advice ? "stopped: the numbers are over the sampled deals finished (PARTIAL)" : "stopped");
        if (msg.advice) this.show(msg);
      } else if (msg.type === "result") {
        this.status("done");
        this.show(msg);
      }
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.busy(false);
      if (!answered) this.status("the connection to the server closed before an answer");
    };
  }

  stop() {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send("stop");
  }

  setUrl(values, seed) {
    const params = new URLSearchParams({ tab: this.kind, ...values, seed });
    for (const [k, v] of [...params]) if (v === "") params.delete(k);
    history.replaceState(null, "", `?${params}`);
    $(`${this.kind}-link`).href = location.href;
  }

  load(params) {
    for (const [k, v] of params) if (this.field(k) && k !== "tab") this.field(k).value = v;
    if (this.kind === "romanian") this.playersChanged(params.get("seat"));
    for (const [k] of params) if (this.field(k)) this.touched.add(k);
    this.check();
  }

  downloads(msg, stem) {
    for (const [ext, type] of [["json", "application/json"], ["csv", "text/csv"]]) {
      const a = $(`${this.kind}-${ext}`);
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([msg[ext]], { type }));
      a.download = `${stem}.${ext}`;
    }
  }
}

class WiezenPanel extends Panel {
  constructor() {
    super("wiezen");
    $("wiezen-example").addEventListener("click", () => {
      for (const k of ["hand", "seat", "turned"]) { this.field(k).value = CONFIG.example[k]; this.touched.add(k); }
      this.check();
    });
    this.field("method").addEventListener("change", () => this.methodChanged());
    this.methodChanged();
    $("wiezen-all").addEventListener("change", () => this.showAll());
  }

  showAll() {
    for (const id of ["wiezen-table", "wiezen-bids"]) $(id).classList.toggle("all", $("wiezen-all").checked);
  }

  methodChanged() {
    const pimc = this.field("method").value.startsWith("pimc");
    for (const el of this.field("worlds").closest(".field").children) el.hidden = !pimc;
    this.field("worlds").disabled = !pimc;
  }

  show(msg) {
    const a = msg.advice;
    $("wiezen-result").hidden = false;
    const summary = $("wiezen-summary");
    summary.textContent = msg.summary;
    summary.dataset.contract = a.recommendation.contract;
    summary.dataset.trump = a.recommendation.trump || "";
    $("wiezen-meta").textContent = `hand ${a.hand} · seat ${a.seat} · turned ${a.turned} · rules ${a.rules} · `
      + `method ${a.method} · ${a.deals.toLocaleString()} sampled deals`
      + (a.stopped_early ? ` (stopped early, the answer clear; at most ${a.samples.toLocaleString()})` : "")
      + ` · seed ${a.seed}`;
    this.downloads(msg, `wiezen-advise-seed${a.seed}`);
    this.bids(msg);
    const body = header($("wiezen-table"),
      ["contract", "P(success)", "95 % CI", "mean tricks", "EV (units)", "EV 95 % CI", "n", "note"]);
    a.contracts.forEach((r, i) => {
      const tr = body.insertRow();
      tr.dataset.contract = r.contract;
      tr.dataset.trump = r.trump || "";
      cell(tr, msg.labels[i]);
      cell(tr, fmt(r.p_success, 3), { "data-column": "p_success", "data-value": String(r.p_success) });
      cell(tr, interval(r.ci_low, r.ci_high, 3));
      cell(tr, fmt(r.mean_tricks, 2));
      cell(tr, signed(r.ev_units, 2), { "data-column": "ev_units", "data-value": String(r.ev_units) });
      cell(tr, interval(r.ev_low, r.ev_high, 2));
      cell(tr, r.n.toLocaleString());
      const notes = [];
      if (r.p_accept !== null && r.p_accept !== undefined) {
        notes.push(`accepted on ${r.n.toLocaleString()} of ${r.asked.toLocaleString()} deals (n counts those)`);
      }
      if (r.discard) notes.push(`discard ${r.discard}`);
      if (msg.not_biddable[i]) notes.push(msg.not_biddable[i]);
      cell(tr, notes.join("; "), { class: "note" });
      if (msg.not_biddable[i]) tr.classList.add("illegal");
      if (!msg.shown[i]) tr.classList.add("extra");
      if (i === msg.recommended) tr.classList.add("recommended");
      if (msg.trick_charts[i]) {
        tr.classList.add("has-tricks");
        tr.addEventListener("click", () => this.tricks(msg, i));
      }
    });
    const hidden = msg.shown.filter((shown) => !shown).length;
    $("wiezen-hidden").textContent = hidden === 0 ? ""
      : `(${hidden} more: options never made in these deals, and rows not yours to bid now)`;
    this.showAll();
    $("wiezen-ev-chart").innerHTML = msg.ev_chart;
    this.tricks(msg, msg.tricks_row);
  }

  bids(msg) {
    const a = msg.advice;
    const table = $("wiezen-bids");
    if (!a.bids) {
      table.replaceChildren();
      $("wiezen-bids-meta").textContent = "no sampled deal was counted for the bid values: the table recommends";
      return;
    }
    $("wiezen-bids-meta").textContent = `${a.deals.toLocaleString()} deals (those where the seats before you `
      + `pass); the others bid as the ${a.bid_model}`;
    const body = header(table, ["bid", "EV (units)", "EV 95 % CI", "n", "you declare", "with partner",
      "another's contract", "all pass"]);
    const order = a.bids.map((r, i) => i).sort((i, j) => a.bids[j].ev_units - a.bids[i].ev_units || i - j);
    for (const i of order) {
      const r = a.bids[i];
      const tr = body.insertRow();
      tr.dataset.contract = r.contract;
      tr.dataset.trump = r.trump || "";
      cell(tr, msg.bid_labels[i]);
      cell(tr, signed(r.ev_units, 2), { "data-column": "ev_units", "data-value": String(r.ev_units) });
      cell(tr, interval(r.ev_low, r.ev_high, 2));
      cell(tr, r.n.toLocaleString());
      for (const share of ["declares", "with_partner", "other_contract", "all_pass"]) cell(tr, fmt(r[share], 2));
      if (i === msg.recommended_bid) tr.classList.add("recommended");
      else if (r.table_p_success === 0) tr.classList.add("extra");  // its contract never made: as in the table
    }
  }

  tricks(msg, i) {
    const rows = $("wiezen-table").tBodies[0].rows;
    for (const tr of rows) tr.classList.remove("selected");
    if (i === null) {
      $("wiezen-tricks-caption").textContent = "Trick distribution";
      $("wiezen-tricks-chart").textContent = "none of the rows shown has one (the rows with mean tricks do)";
      return;
    }
    rows[i].classList.add("selected");
    $("wiezen-tricks-caption").textContent = `Trick distribution: ${msg.labels[i]}`;
    $("wiezen-tricks-chart").innerHTML = msg.trick_charts[i];
  }
}

class RomanianPanel extends Panel {
  constructor() {
    super("romanian");
    this.field("players").addEventListener("change", () => this.playersChanged());
    this.playersChanged(CONFIG.defaults.romanian.seat);
  }

  playersChanged(seat) {
    const n = Number(this.field("players").value);
    const select = this.field("seat");
    const keep = seat ?? select.value;
    select.replaceChildren();
    for (let s = 0; s < n; s++) {
      const role = s === 0 ? " (left of the dealer, bids first)" : s === n - 1 ? " (dealer, bids last)" : "";
      select.add(new Option(`${s}${role}`, String(s)));
    }
    select.value = Number(keep) < n ? String(keep) : "0";
    const deck = new Set(CONFIG.decks[n]);
    for (const b of $("romanian-grid").querySelectorAll(".card")) b.disabled = !deck.has(b.dataset.card);
  }

  show(msg) {
    const a = msg.advice;
    $("romanian-result").hidden = false;
    const summary = $("romanian-summary");
    summary.textContent = msg.summary;
    summary.dataset.bid = a.recommendation.bid;
    $("romanian-meta").textContent = `${a.players} players · hand ${a.hand} · seat ${a.seat} · trump ${a.trump || "none"} · `
      + `bids so far ${a.bids_so_far.join(",") || "none"} · scoring ${a.scoring} · model ${a.model} · `
      + `${a.samples.toLocaleString()} sampled deals · seed ${this.seed}`;
    this.downloads(msg, `romanian-advise-seed${this.seed}`);
    const cards = a.options.length - 1;
    const tricks = Array.from({ length: cards + 1 }, (_, t) => `t = ${t}`);
    const body = header($("romanian-table"), ["bid", "P(exact)", "95 % CI", "E[score]", "95 % CI", ...tricks]);
    for (const o of a.options) {
      const tr = body.insertRow();
      tr.dataset.bid = o.bid;
      cell(tr, o.legal ? String(o.bid) : `${o.bid} (forbidden to the dealer)`);
      cell(tr, fmt(o.p_exact, 3), { "data-column": "p_exact", "data-value": String(o.p_exact) });
      cell(tr, interval(...o.p_exact_ci, 3));
      cell(tr, signed(o.expected_score, 2), { "data-column": "expected_score", "data-value": String(o.expected_score) });
      cell(tr, interval(...o.expected_score_ci, 2));
      for (const p of o.tricks) cell(tr, fmt(p, 3));
      if (!o.legal) tr.classList.add("illegal");
      if (o.bid === a.recommendation.bid) tr.classList.add("recommended");
    }
  }
}

const panels = { wiezen: new WiezenPanel(), romanian: new RomanianPanel() };

function showTab(kind) {
  for (const button of document.querySelectorAll("nav .tab")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === kind));
  }
  for (const name of Object.keys(panels)) $(name).hidden = name !== kind;
}

for (const button of document.querySelectorAll("nav .tab")) {
  button.addEventListener("click", () => showTab(button.dataset.tab));
}

// A link names a tab and its position; with a seed it reproduces the result, so it is run at once.
const params = new URLSearchParams(location.search);
const kind = params.get("tab") in panels ? params.get("tab") : "wiezen";
showTab(kind);
if ([...params].length > 0) {
  panels[kind].load(params);
  if (params.get("hand") && params.get("seed")) panels[kind].run();
} else {
  for (const panel of Object.values(panels)) panel.mark([], null);
}
