// notillm-local playground. Plain DOM + SVG, no dependencies, same-origin calls only.
// Nothing that comes from an answer is ever inserted as HTML: every text goes through
// textContent (createTextNode) or setAttribute.
"use strict";

(() => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const TOKEN_KEY = "notillm-local.token";
  const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]; // ISO 1..7
  const KINDS = ["time", "app", "keyword", "intent", "exclusion", "all", "context", "filler",
    "question", "unread"];
  const EXAMPLES = [
    "지금부터 2시간 카톡 알림 받지마",
    "매일 밤 10시부터 아침 6시까지 조용히",
    "평일 오전 9시부터 6시까지 슬랙만 받아줘",
    "카톡 알림 꺼줘",
    "'광고'라는 단어 들어간 알림 오후 3시까지 막아줘",
  ];

  const state = {
    pendingOriginal: null, // the earlier command while the service waits for more
    defaultApps: null, // text of the default catalog, for "Reset"
    health: null,
    runs: [], // answers, for the local/hosted comparison
    busy: false,
  };

  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------ DOM helpers

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" || typeof child === "number"
        ? document.createTextNode(String(child)) : child);
    }
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.setAttribute("class", String(value));
      else node.setAttribute(key, String(value));
    }
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function show(id, visible) {
    $(id).hidden = !visible;
  }

  // A CSS class made only of safe characters, whatever the answer says.
  function cls(value) {
    return String(value).toLowerCase().replace(/[^a-z0-9_-]/g, "");
  }

  // ------------------------------------------------------------------ time helpers

  function pad(n) {
    return String(n).padStart(2, "0");
  }

  // Now in the browser's own UTC offset, to the second: 2026-08-14T21:30:00+09:00.
  function nowIso() {
    const d = new Date();
    const off = -d.getTimezoneOffset();
    const sign = off >= 0 ? "+" : "-";
    const a = Math.abs(off);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
      `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` +
      `${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
  }

  const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

  // The wall-clock parts of an ISO time as written (in the request's offset, not the
  // browser's), with its ISO weekday (1 = Monday).
  function wall(iso) {
    const m = ISO_RE.exec(String(iso || "").trim());
    if (!m) return null;
    const [y, mo, d, h, mi] = m.slice(1, 6).map(Number);
    const js = new Date(Date.UTC(y, mo - 1, d)).getUTCDay(); // 0 = Sunday
    let offMin = 0;
    const off = m[7];
    if (off && off !== "Z") {
      const sign = off[0] === "-" ? -1 : 1;
      const digits = off.slice(1).replace(":", "");
      offMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
    }
    return { y, mo, d, h, mi, dow: js === 0 ? 7 : js, offMin, ms: Date.parse(iso) };
  }

  function label(iso) {
    const w = wall(iso);
    if (!w) return String(iso);
    return `${DAYS[w.dow - 1]} ${pad(w.mo)}-${pad(w.d)} ${pad(w.h)}:${pad(w.mi)}`;
  }

  function duration(ms) {
    const min = Math.round(ms / 60000);
    if (min < 60) return `${min} min`;
    const h = Math.floor(min / 60);
    const rest = min % 60;
    if (h < 48) return rest ? `${h} h ${rest} min` : `${h} h`;
    const days = Math.floor(h / 24);
    const hours = h % 24;
    return hours ? `${days} d ${hours} h` : `${days} d`;
  }

  function hhmmToMin(s) {
    const m = /^(\d{1,2}):(\d{2})/.exec(String(s || ""));
    return m ? Number(m[1]) * 60 + Number(m[2]) : null;
  }

  // ------------------------------------------------------------------ HTTP

  function token() {
    try {
      return sessionStorage.getItem(TOKEN_KEY) || "";
    } catch (_) {
      return "";
    }
  }

  function headers(json) {
    const h = { Accept: "application/json" };
    if (json) h["Content-Type"] = "application/json";
    const t = token();
    if (t) h.Authorization = `Bearer ${t}`;
    return h;
  }

  async function call(method, path, body) {
    let res;
    try {
      res = await fetch(path, {
        method,
        headers: headers(body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "same-origin",
        cache: "no-store",
      });
    } catch (err) {
      return { status: 0, body: null, network: String(err && err.message ? err.message : err) };
    }
    const text = await res.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch (_) {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  }

  // ------------------------------------------------------------------ errors

  function showError(title, lines) {
    const box = clear($("error"));
    box.append(el("strong", {}, title));
    if (lines && lines.length) {
      const ul = el("ul");
      for (const line of lines) ul.append(el("li", {}, line));
      box.append(ul);
    }
    box.hidden = false;
  }

  function hideError() {
    clear($("error")).hidden = true;
  }

  // FastAPI/the service answer errors as {"error": ..., "detail": str | [{loc, msg}]}.
  function detailLines(body) {
    if (!body || typeof body !== "object") return body ? [String(body)] : [];
    const detail = body.detail;
    if (Array.isArray(detail)) {
      return detail.map((d) => {
        if (!d || typeof d !== "object") return String(d);
        const loc = Array.isArray(d.loc) ? d.loc.filter((p) => p !== "body").join(".") : "";
        return loc ? `${loc}: ${d.msg}` : String(d.msg);
      });
    }
    return detail === undefined || detail === null ? [] : [String(detail)];
  }

  function explainFailure(res) {
    if (res.status === 0) {
      showError("Could not reach the service.", [res.network || "network error",
        "Is `notillm-local serve` still running?"]);
    } else if (res.status === 401) {
      askToken("The service refused the request: it needs its API token (401). " +
        "Enter the token it was started with (NOTILLM_API_TOKEN).");
      showError("Unauthorized (401): enter the service's API token above.", []);
    } else if (res.status === 422) {
      showError("The service could not read this request (422):", detailLines(res.body));
    } else if (res.status === 413) {
      showError("The request is too large (413).", detailLines(res.body));
    } else if (res.status === 503 || res.status === 504) {
      showError(`The service is busy or timed out (${res.status}); try again.`,
        detailLines(res.body));
    } else {
      showError(`The service answered HTTP ${res.status}.`, detailLines(res.body));
    }
  }

  // ------------------------------------------------------------------ token

  function askToken(reason) {
    if (reason) $("token-reason").textContent = reason;
    show("token-panel", true);
    $("token").focus();
  }

  function saveToken() {
    const value = $("token").value.trim();
    try {
      if (value) sessionStorage.setItem(TOKEN_KEY, value);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch (_) { /* storage off: the token lives only until reload */ }
    $("token").value = "";
    hideError();
    loadCatalog();
  }

  function forgetToken() {
    try {
      sessionStorage.removeItem(TOKEN_KEY);
    } catch (_) { /* nothing stored */ }
    $("token").value = "";
  }

  // ------------------------------------------------------------------ startup

  async function loadHealth() {
    const res = await call("GET", "/health");
    const node = $("health");
    if (res.status !== 200 || !res.body || typeof res.body !== "object") {
      node.textContent = res.status === 0 ? "service unreachable" : `health: HTTP ${res.status}`;
      return;
    }
    const h = res.body;
    state.health = h;
    const models = h.models && typeof h.models === "object"
      ? Object.entries(h.models).map(([k, v]) => `${k}: ${v}`).join(" · ") : "";
    node.textContent = `${h.status} · engine ${h.engine} · ${h.offline ? "offline" : "online"}` +
      (models ? ` · ${models}` : "");
    node.className = `health ${cls(h.status)}`;
    setupCompare();
  }

  async function loadCatalog() {
    const res = await call("GET", "/page/apps.json");
    if (res.status === 401) {
      askToken();
      return;
    }
    if (res.status !== 200 || !Array.isArray(res.body)) {
      $("apps-count").textContent = "(the service's default; could not load it)";
      return;
    }
    show("token-panel", false);
    state.defaultApps = JSON.stringify(res.body, null, 1);
    if (!$("apps").value.trim()) $("apps").value = state.defaultApps;
    updateAppsCount();
  }

  function updateAppsCount() {
    try {
      const apps = JSON.parse($("apps").value || "null");
      $("apps-count").textContent = Array.isArray(apps) ? `(${apps.length})` : "(service default)";
    } catch (_) {
      $("apps-count").textContent = "(not valid JSON)";
    }
  }

  // ------------------------------------------------------------------ send

  async function send() {
    if (state.busy) return;
    try {
      await sendOnce();
    } finally {
      // For tests and tools: how many sends have settled (answer, error or refusal).
      document.body.dataset.done = String(Number(document.body.dataset.done || 0) + 1);
    }
  }

  async function sendOnce() {
    hideError();
    const prompt = $("prompt").value.trim();
    if (!prompt) {
      showError("Type a command first.", []);
      return;
    }
    let installedApps;
    const appsText = $("apps").value.trim();
    if (appsText) {
      try {
        installedApps = JSON.parse(appsText);
      } catch (err) {
        showError("Installed apps is not valid JSON:", [String(err.message || err)]);
        return;
      }
    }
    const body = {
      prompt,
      currentTime: $("now").value.trim(),
      pending: state.pendingOriginal !== null,
      pendingOriginal: state.pendingOriginal,
      trace: true,
    };
    if (installedApps !== undefined) body.installedApps = installedApps;
    $("request-json").textContent = JSON.stringify(body, null, 2);

    state.busy = true;
    $("send").disabled = true;
    $("send").textContent = "Sending…";
    const started = performance.now();
    let res;
    try {
      res = await call("POST", "/v1/handle", body);
    } finally {
      state.busy = false;
      $("send").disabled = false;
      $("send").textContent = "Send";
    }
    const roundTrip = performance.now() - started;
    $("response-json").textContent = typeof res.body === "string"
      ? res.body : JSON.stringify(res.body, null, 2);
    if (res.status !== 200 || !res.body || typeof res.body !== "object") {
      explainFailure(res);
      return;
    }
    show("token-panel", false);
    const answer = res.body;
    renderAnswer(answer, body);
    renderWhy(answer, body);
    addHistory(body, answer);
    addRun(body, answer, roundTrip);

    // Follow-up turns: the service asked for more, so keep the command it is about.
    if (answer.needsSupplement) {
      const keep = body.pending && answer.pendingAction !== "NEW_REQUEST";
      setPending(keep ? body.pendingOriginal : body.prompt);
    } else {
      setPending(null);
    }
    $("prompt").value = "";
    $("prompt").focus();
  }

  function setPending(original) {
    state.pendingOriginal = original;
    $("pending-original").textContent = original || "";
    show("pending-banner", original !== null);
  }

  // ------------------------------------------------------------------ answer

  function renderAnswer(answer, request) {
    show("answer", true);
    $("message").textContent = String(answer.message ?? "");
    const badges = clear($("badges"));
    const badge = (text, kind) => badges.append(el("span", { class: `badge ${kind}` }, text));
    badge(answer.ok ? "ok" : "not ok", answer.ok ? "good" : "bad");
    if (answer.dialogIntent) badge(`intent: ${answer.dialogIntent}`, "plain");
    if (answer.failReason) badge(`failReason: ${answer.failReason}`, "bad");
    if (answer.pendingAction) badge(`pendingAction: ${answer.pendingAction}`, "plain");
    if (answer.needsSupplement) badge("needs more: answer the question", "warn");

    const rule = $("rule-json");
    if (answer.targetFixed || answer.condition) {
      rule.textContent = pretty({ targetFixed: answer.targetFixed, condition: answer.condition });
    } else {
      rule.textContent = `no rule (${answer.failReason || "none"})`;
    }
    drawTimeline(request.currentTime, answer.condition);
    drawWeek(request.currentTime, answer.condition);
  }

  // JSON with two-space indents, but lists of plain values on one line ("days_of_week": [1, 5]).
  function pretty(value, indent = "") {
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.every((v) => v === null || typeof v !== "object")) {
        return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
      }
      return `[\n${value.map((v) => inner + pretty(v, inner)).join(",\n")}\n${indent}]`;
    }
    if (value && typeof value === "object") {
      const entries = Object.entries(value);
      if (!entries.length) return "{}";
      return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pretty(v, inner)}`)
        .join(",\n")}\n${indent}}`;
    }
    return JSON.stringify(value === undefined ? null : value);
  }

  function drawTimeline(nowText, cond) {
    const box = clear($("timeline"));
    if (!cond || !cond.delivery || !cond.expires) {
      box.append(el("p", { class: "muted" }, "No rule, so nothing to draw."));
      return;
    }
    const now = wall(nowText);
    const del = wall(cond.delivery);
    const exp = wall(cond.expires);
    if (!del || !exp || !Number.isFinite(del.ms) || !Number.isFinite(exp.ms)) {
      box.append(el("p", { class: "muted" }, "The rule's times could not be read."));
      return;
    }
    const nowMs = now && Number.isFinite(now.ms) ? now.ms : del.ms;
    const t0 = Math.min(nowMs, del.ms);
    const t1 = Math.max(exp.ms, t0 + 60000);
    const W = 560;
    const H = 96;
    const L = 14;
    const R = W - 14;
    const x = (t) => L + ((t - t0) / (t1 - t0)) * (R - L);
    const s = svg("svg", {
      viewBox: `0 0 ${W} ${H}`, class: "timeline", role: "img",
      "aria-label": `delivery ${label(cond.delivery)}, expires ${label(cond.expires)}`,
    });
    s.append(svg("line", { x1: L, x2: R, y1: 50, y2: 50, class: "tl-axis" }));
    // Midnights in the request's offset, when there are few enough to be useful.
    const day = 86400000;
    if (t1 - t0 <= 14 * day) {
      const off = (now || del).offMin * 60000;
      let m = Math.ceil((t0 + off) / day) * day - off;
      for (; m < t1; m += day) {
        const xm = x(m);
        s.append(svg("line", { x1: xm, x2: xm, y1: 30, y2: 70, class: "tl-midnight" }));
        const wd = new Date(m + off);
        s.append(svg("text", { x: xm + 3, y: 36, class: "tl-day" },
          `${pad(wd.getUTCMonth() + 1)}-${pad(wd.getUTCDate())}`));
      }
    }
    const xd = x(del.ms);
    const xe = x(exp.ms);
    s.append(svg("rect", { x: xd, y: 42, width: Math.max(2, xe - xd), height: 16, rx: 3,
      class: "tl-bar" }));
    s.append(svg("text", { x: (xd + xe) / 2, y: 54, class: "tl-len", "text-anchor": "middle" },
      duration(exp.ms - del.ms)));
    if (now && Number.isFinite(now.ms)) {
      const xn = x(now.ms);
      s.append(svg("line", { x1: xn, x2: xn, y1: 16, y2: 62, class: "tl-now-line" }));
      s.append(svg("text", { x: xn, y: 12, class: "tl-now",
        "text-anchor": xn > W / 2 ? "end" : "start" }, `now ${label(nowText)}`));
    }
    s.append(svg("text", { x: xd, y: 78, class: "tl-delivery",
      "text-anchor": xd > W * 0.7 ? "end" : "start" }, `delivery ${label(cond.delivery)}`));
    s.append(svg("text", { x: xe, y: 92, class: "tl-expires",
      "text-anchor": xe < W * 0.3 ? "start" : "end" }, `expires ${label(cond.expires)}`));
    box.append(s);
    const mode = cond.recurrence && cond.recurrence !== "none"
      ? ` — the ${cond.recurrence} window in force now, or the next one` : "";
    box.append(el("p", { class: "caption" },
      `${label(cond.delivery)} → ${label(cond.expires)} (${duration(exp.ms - del.ms)})${mode}`));
  }

  function drawWeek(nowText, cond) {
    const box = clear($("week"));
    if (!cond || !cond.recurrence || cond.recurrence === "none") {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const days = cond.recurrence === "daily" || !Array.isArray(cond.days_of_week) ||
      !cond.days_of_week.length ? [1, 2, 3, 4, 5, 6, 7]
      : cond.days_of_week.map(Number).filter((d) => d >= 1 && d <= 7);
    let start = hhmmToMin(cond.window_start);
    let end = hhmmToMin(cond.window_end);
    if (start === null) start = 0;
    if (end === null) end = 24 * 60;
    const W = 560;
    const rowH = 17;
    const top = 16;
    const L = 40;
    const R = W - 18;
    const H = top + rowH * 7 + 4;
    const x = (min) => L + (min / 1440) * (R - L);
    const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "week", role: "img",
      "aria-label": `${cond.recurrence} window ${cond.window_start || "00:00"}–` +
        `${cond.window_end || "24:00"} on ${days.map((d) => DAYS[d - 1]).join(" ")}` });
    for (let h = 0; h <= 24; h += 6) {
      s.append(svg("line", { x1: x(h * 60), x2: x(h * 60), y1: top - 2, y2: H - 4,
        class: "wk-grid" }));
      s.append(svg("text", { x: x(h * 60), y: 10, class: "wk-hour", "text-anchor": "middle" },
        `${pad(h)}:00`));
    }
    const now = wall(nowText);
    for (let d = 1; d <= 7; d++) {
      const y = top + (d - 1) * rowH;
      const today = now && now.dow === d;
      s.append(svg("rect", { x: L, y: y + 1, width: R - L, height: rowH - 2,
        class: today ? "wk-row wk-today" : "wk-row" }));
      s.append(svg("text", { x: 4, y: y + rowH - 5, class: today ? "wk-day wk-today-label" : "wk-day" },
        DAYS[d - 1]));
    }
    const block = (d, from, to) => {
      if (to <= from) return;
      const y = top + (d - 1) * rowH;
      s.append(svg("rect", { x: x(from), y: y + 3, width: x(to) - x(from), height: rowH - 6,
        rx: 2, class: "wk-window", "data-day": d }));
    };
    for (const d of days) {
      if (end > start) {
        block(d, start, end);
      } else { // overnight (or a full day): runs into the next day
        block(d, start, 1440);
        block((d % 7) + 1, 0, end);
      }
    }
    if (now) {
      const y = top + (now.dow - 1) * rowH;
      const xn = x(now.h * 60 + now.mi);
      s.append(svg("line", { x1: xn, x2: xn, y1: y, y2: y + rowH, class: "wk-now" }));
    }
    box.append(s);
    const which = cond.recurrence === "daily" ? "every day"
      : days.map((d) => DAYS[d - 1]).join(" ");
    box.append(el("p", { class: "caption" },
      `${cond.recurrence}: ${which}, ${cond.window_start || "00:00"}–${cond.window_end || "24:00"}`));
  }

  // ------------------------------------------------------------------ why

  // The text with its spans as <mark> elements, built from code points (the service counts
  // offsets in Python characters; JavaScript strings count UTF-16 units).
  function highlighted(text, spans) {
    const chars = Array.from(text);
    const out = el("span", { class: "hl" });
    const sorted = spans
      .filter((sp) => Number.isInteger(sp.start) && Number.isInteger(sp.end) &&
        sp.start >= 0 && sp.end > sp.start && sp.end <= chars.length)
      .sort((a, b) => a.start - b.start || (b.end - b.start) - (a.end - a.start));
    let pos = 0;
    for (const sp of sorted) {
      if (sp.start < pos) continue; // overlapping: listed in the table below
      if (sp.start > pos) out.append(document.createTextNode(chars.slice(pos, sp.start).join("")));
      const title = `${sp.kind}${sp.label ? `: ${sp.label}` : ""} (read by ${sp.source || "code"})`;
      out.append(el("mark", {
        class: `k-${cls(sp.kind)} src-${cls(sp.source || "code")}`, title,
        "data-kind": cls(sp.kind),
      }, chars.slice(sp.start, sp.end).join("")));
      pos = sp.end;
    }
    if (pos < chars.length) out.append(document.createTextNode(chars.slice(pos).join("")));
    return out;
  }

  function table(headers, rows) {
    const t = el("table");
    t.append(el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", {}, h)))));
    const tb = el("tbody");
    for (const row of rows) {
      tb.append(el("tr", {}, ...row.map((cell) =>
        cell instanceof Node ? el("td", {}, cell) : el("td", {}, cell === null || cell === undefined ? "–" : String(cell)))));
    }
    t.append(tb);
    return t;
  }

  function renderWhy(answer, request) {
    show("why", true);
    const meta = answer.meta && typeof answer.meta === "object" ? answer.meta : {};
    const trace = meta.trace && typeof meta.trace === "object" ? meta.trace : null;
    const spans = trace && Array.isArray(trace.spans) ? trace.spans : [];
    const text = clear($("why-text"));
    const turns = [];
    if (request.pending && request.pendingOriginal) {
      turns.push(["earlier command", "pendingOriginal", String(request.pendingOriginal).trim()]);
    }
    turns.push(["this turn", "prompt", request.prompt]);
    for (const [name, turn, words] of turns) {
      const mine = spans.filter((sp) => (sp.turn || "prompt") === turn);
      text.append(el("p", { class: "sentence", "data-turn": turn },
        el("span", { class: "muted" }, `${name}: `), highlighted(words, mine)));
    }
    if (!trace) {
      text.append(el("p", { class: "muted" },
        "This answer carries no trace (meta.trace is absent): the service did not report what " +
        "each stage read."));
    } else if (!spans.length) {
      text.append(el("p", { class: "muted" }, "The trace holds no spans for this answer."));
    } else {
      text.append(el("details", {}, el("summary", {}, `all spans (${spans.length})`),
        table(["turn", "text", "kind", "read as", "by"], spans.map((sp) =>
          [sp.turn || "prompt", sp.text, sp.kind, sp.label, sp.source || "code"]))));
    }
    if (trace && (trace.timeAxis || trace.timeOutcome)) {
      text.append(el("p", {}, `time: ${trace.timeAxis || "–"} · outcome: ${trace.timeOutcome || "–"}`));
    }

    const legend = clear($("legend"));
    const seen = new Set(spans.map((sp) => sp.kind));
    for (const kind of KINDS.filter((k) => seen.has(k))) {
      legend.append(el("mark", { class: `k-${kind}` }, kind), " ");
    }
    if (spans.some((sp) => sp.source === "model")) {
      legend.append(el("mark", { class: "src-model" }, "read by the model"));
    }

    const gate = clear($("gate"));
    if (trace && trace.gate && typeof trace.gate.pCommand === "number") {
      const g = trace.gate;
      const pct = (v) => `${Math.max(0, Math.min(100, v * 100)).toFixed(1)}%`;
      const meter = el("div", { class: "meter", role: "meter", "aria-valuemin": 0,
        "aria-valuemax": 1, "aria-valuenow": g.pCommand });
      const fill = el("div", { class: g.chitchat ? "fill chitchat" : "fill" });
      fill.style.width = pct(g.pCommand);
      const mark = el("div", { class: "threshold" });
      mark.style.left = pct(g.threshold);
      meter.append(fill, mark);
      gate.append(meter, el("p", {},
        `p(command) = ${g.pCommand.toFixed(3)}, threshold ${Number(g.threshold).toFixed(3)} → ` +
        (g.chitchat ? "chitchat (rejected before any model call)" : "a command")));
    } else {
      gate.append(el("p", { class: "muted" }, "No gate score in this answer."));
    }

    const slots = clear($("slots"));
    const slotRows = trace && Array.isArray(trace.slots) ? trace.slots : [];
    if (slotRows.length) {
      slots.append(table(["slot", "decided by", "value", "note"], slotRows.map((sl) => [
        sl.slot,
        el("span", { class: `by by-${cls(sl.decidedBy)}` }, String(sl.decidedBy)),
        sl.value, sl.note,
      ])));
    } else {
      slots.append(el("p", { class: "muted" }, "No slot decisions in this answer."));
    }

    const stages = clear($("stages"));
    const stageRows = trace && Array.isArray(trace.stages)
      ? trace.stages.filter((st) => typeof st.ms === "number") : [];
    if (stageRows.length) {
      const max = Math.max(...stageRows.map((st) => st.ms), 0.001);
      const list = el("div", { class: "bars" });
      for (const st of stageRows) {
        const bar = el("span", { class: "bar" });
        bar.style.width = `${Math.max(0.5, (st.ms / max) * 100)}%`;
        list.append(el("div", { class: "bar-row" },
          el("span", { class: "bar-name" }, String(st.name)),
          el("span", { class: "bar-track" }, bar),
          el("span", { class: "bar-ms" }, `${st.ms.toFixed(1)} ms`)));
      }
      stages.append(list);
    } else {
      stages.append(el("p", { class: "muted" }, "No per-stage timings in this answer."));
    }
    if (typeof meta.latencyMs === "number") {
      stages.append(el("p", {}, `total ${meta.latencyMs.toFixed(1)} ms (as the service measured)`));
    }

    const calls = clear($("calls"));
    const kv = [
      ["engine", meta.engine],
      ["model", meta.model],
      ["local model calls", meta.llmCalls],
      ["hosted calls", meta.hostedCalls],
      ["fallback used", meta.fallbackUsed],
      ["reason", meta.reason],
      ["cost (USD)", typeof meta.costUsd === "number" ? meta.costUsd.toFixed(6) : meta.costUsd],
    ];
    for (const [k, v] of kv) {
      if (v === undefined) continue;
      calls.append(el("dt", {}, k), el("dd", {}, v === null ? "–" : String(v)));
    }
  }

  // ------------------------------------------------------------------ history

  function addHistory(request, answer) {
    const list = $("history");
    list.append(el("li", { class: request.pending ? "turn pending" : "turn" },
      el("span", { class: "you" }, request.prompt),
      el("span", { class: "arrow" }, " → "),
      el("span", { class: answer.ok ? "said good" : "said" }, String(answer.message ?? ""))));
    while (list.children.length > 30) list.removeChild(list.firstChild);
  }

  // ------------------------------------------------------------------ compare

  function setupCompare() {
    const h = state.health;
    const online = h && h.offline === false && h.engine !== "local";
    show("compare", Boolean(online));
    if (!online) return;
    $("compare-note").textContent =
      `This service runs one engine per process (engine=${h.engine}), so it cannot answer the ` +
      "same command twice, once locally and once hosted. Each answer is filed below under the " +
      "engine that actually produced it, as its meta reports (hostedCalls, fallbackUsed, " +
      "latency, cost). For a side-by-side over a whole data set run " +
      "`notillm-local bench --engines local,hybrid --dataset …`.";
    renderCompare();
  }

  function addRun(request, answer, roundTrip) {
    const meta = answer.meta || {};
    const hosted = Number(meta.hostedCalls) > 0 || meta.fallbackUsed === true ||
      meta.engine === "hosted";
    state.runs.push({ prompt: request.prompt, side: hosted ? "hosted" : "local", answer,
      roundTrip });
    if (state.runs.length > 50) state.runs.shift();
    if (!$("compare").hidden) renderCompare();
  }

  function renderCompare() {
    const box = clear($("compare-table"));
    if (!state.runs.length) {
      box.append(el("p", { class: "muted" }, "No answers yet."));
      return;
    }
    const sides = ["local", "hosted"];
    const summary = sides.map((side) => {
      const runs = state.runs.filter((r) => r.side === side);
      const lat = runs.map((r) => Number(r.answer.meta.latencyMs)).filter(Number.isFinite);
      const cost = runs.map((r) => Number(r.answer.meta.costUsd)).filter(Number.isFinite);
      return [side, runs.length,
        lat.length ? `${(lat.reduce((a, b) => a + b, 0) / lat.length).toFixed(0)} ms` : "–",
        cost.length ? cost.reduce((a, b) => a + b, 0).toFixed(6) : "–"];
    });
    box.append(table(["answered by", "answers", "mean latency", "total cost (USD)"], summary));
    const prompts = [...new Set(state.runs.map((r) => r.prompt))].reverse();
    const cell = (run) => {
      if (!run) return "—";
      const m = run.answer.meta;
      return el("div", {}, el("div", {}, String(run.answer.message ?? "")),
        el("div", { class: "muted" },
          `${Number(m.latencyMs).toFixed(0)} ms · $${Number(m.costUsd).toFixed(6)} · ` +
          `${m.model || m.engine}${m.reason ? ` · ${m.reason}` : ""}`));
    };
    const rows = prompts.map((p) => {
      const last = (side) => [...state.runs].reverse().find((r) => r.prompt === p && r.side === side);
      return [p, cell(last("local")), cell(last("hosted"))];
    });
    box.append(table(["command", "local", "hosted"], rows));
  }

  // ------------------------------------------------------------------ wiring

  function init() {
    $("now").value = nowIso();
    $("now-reset").addEventListener("click", () => { $("now").value = nowIso(); });
    $("send").addEventListener("click", send);
    $("prompt").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.isComposing) {
        ev.preventDefault();
        send();
      }
    });
    $("pending-cancel").addEventListener("click", () => setPending(null));
    $("token-save").addEventListener("click", saveToken);
    $("token").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") saveToken();
    });
    $("token-clear").addEventListener("click", forgetToken);
    $("apps").addEventListener("input", updateAppsCount);
    $("apps-reset").addEventListener("click", () => {
      if (state.defaultApps !== null) $("apps").value = state.defaultApps;
      updateAppsCount();
    });
    const ex = $("examples");
    for (const text of EXAMPLES) {
      const b = el("button", { type: "button", class: "chip" }, text);
      b.addEventListener("click", () => {
        $("prompt").value = text;
        $("prompt").focus();
      });
      ex.append(b);
    }
    loadHealth();
    loadCatalog();
    document.body.setAttribute("data-ready", "1");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
