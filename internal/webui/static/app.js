// assay's web page: ask, watch the loop, read the sources and the trace,
// run a batch. It calls only the public /v1 API. The API key lives in this
// tab's sessionStorage and travels only in the Authorization header (event
// streams are read with fetch, not EventSource, for that reason). Text from
// the API is always inserted as text, never as HTML.
"use strict";

(() => {
  const KEY = "assay.apiKey";
  const $ = (id) => document.getElementById(id);
  let config = { temporal_ui_url: "", namespace: "default" };

  // ---- small DOM helpers -------------------------------------------------

  function el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") n.className = v;
      else if (k === "text") n.textContent = v;
      else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
      else n.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) {
      if (kid === undefined || kid === null || kid === false) continue;
      n.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return n;
  }
  const clear = (n) => { while (n.firstChild) n.removeChild(n.firstChild); return n; };
  const fmtMS = (ms) => (ms >= 1000 ? (ms / 1000).toFixed(2) + " s" : ms >= 10 ? Math.round(ms) + " ms" : (ms || 0).toFixed(1) + " ms");
  const fmtCost = (usd) => "$" + (usd || 0).toFixed(usd && usd < 0.01 ? 5 : 2);
  const fmtScore = (x) => (typeof x === "number" ? x.toFixed(3) : "");

  // ---- the API key -------------------------------------------------------

  const getKey = () => sessionStorage.getItem(KEY) || "";
  function setKey(k) {
    if (k) sessionStorage.setItem(KEY, k); else sessionStorage.removeItem(KEY);
    $("key-button").textContent = k ? "API key: set" : "API key: none";
  }
  function toggleKeyPanel(open) {
    const p = $("key-panel");
    p.hidden = open === undefined ? !p.hidden : !open;
    $("key-button").setAttribute("aria-expanded", String(!p.hidden));
    if (!p.hidden) $("key-input").focus();
  }

  // ---- errors in words ---------------------------------------------------

  class APIError extends Error {
    constructor(status, body, retryAfter) {
      super(describe(status, body, retryAfter));
      this.status = status;
      this.body = body;
      this.retryAfter = retryAfter;
    }
  }

  function describe(status, body, retryAfter) {
    const e = (body && body.error) || {};
    // A gateway's 5xx bodies carry only the status text; say more than that.
    const generic = e.message === "Service Unavailable" || e.message === "Internal Server Error";
    const detail = e.message && !generic ? (e.field ? e.field + ": " : "") + e.message : "";
    const rid = e.request_id ? " (request " + e.request_id + ")" : "";
    switch (status) {
      case 0: return "Could not reach the gateway: " + detail + ". Is it running?";
      case 400: return "The gateway rejected the request (400): " + detail;
      case 401: return "The gateway needs a valid API key (401). " +
        (getKey() ? "The key in this tab was not accepted; enter another." : "Enter your key with the “API key” button.");
      case 404: return "Not found (404): " + (detail || "no such thing") +
        ". A question or batch is visible only with the key that started it.";
      case 409: return "Conflict (409): " + detail;
      case 413: return "Too large (413): " + detail;
      case 422: return "The question was refused (422): " + detail;
      case 429: return "Too many requests (429): this key's rate limit is spent. Try again in " +
        (retryAfter || "a few") + " seconds.";
      case 503: return "The service is unavailable (503): " + (detail || "Temporal or the worker cannot be reached") +
        ". Try again in a moment" + rid + ".";
      default: return "The gateway answered " + status + ": " + (detail || "unexpected error") + rid;
    }
  }

  let alertTimer = 0;
  function showError(err) {
    const a = $("alert");
    clearTimeout(alertTimer);
    a.textContent = err instanceof APIError ? err.message : "Error: " + (err && err.message ? err.message : err);
    a.hidden = false;
    if (err instanceof APIError && err.status === 401) toggleKeyPanel(true);
    if (err instanceof APIError && err.status === 429 && err.retryAfter) {
      alertTimer = setTimeout(() => { a.hidden = true; }, err.retryAfter * 1000);
    }
  }
  const hideError = () => { $("alert").hidden = true; };

  // api calls path on the gateway with the key; non-2xx become APIError.
  async function api(path, opts = {}) {
    const headers = Object.assign({ "Accept": "application/json" }, opts.headers || {});
    const k = getKey();
    if (k) headers["Authorization"] = "Bearer " + k;
    let resp;
    try {
      resp = await fetch(path, Object.assign({}, opts, { headers }));
    } catch (e) {
      throw new APIError(0, { error: { message: e.message } });
    }
    if (!resp.ok) {
      let body = null;
      try { body = await resp.json(); } catch (_) { /* not JSON */ }
      const ra = parseInt(resp.headers.get("Retry-After") || "", 10);
      throw new APIError(resp.status, body, Number.isFinite(ra) ? ra : 0);
    }
    return opts.raw ? resp : resp.json();
  }

  // ---- stop reasons in words ---------------------------------------------

  const STOPS = {
    answered: ["Answered", "The answer below comes only from the cited passages. Open a citation to read it."],
    insufficient_context: ["Not found in the documents",
      "The documents this key can see do not hold enough to answer, so assay did not guess. Try naming the product or model (X200, K50), using the words the documents would use (an error code, a part number), asking one thing at a time — or ask someone who can see more documents."],
    repeated_query: ["Stopped: nothing new to search",
      "The rewritten search would have repeated an earlier one (same words or the same results), so the loop stopped rather than spin. Rephrase the question with other words."],
    budget_exhausted: ["Stopped: budget spent",
      "The run used its attempts, tokens, cost or time before the evidence was good enough; weak evidence is never turned into an answer. Ask a narrower question."],
    refused: ["Refused", "The question was declined by the input checks. Ask a plain question about the documents."],
    invalid_request: ["Invalid request", "The request itself was malformed; the detail says which part."],
    search_error: ["Search failed", "Searching the index failed. Try again; if it keeps failing, give the operator the run id."],
    assessment_error: ["Assessment failed", "Judging the evidence failed. Try again; if it keeps failing, give the operator the run id."],
    generation_error: ["Answer generation failed", "Writing the answer failed. Try again; if it keeps failing, give the operator the run id."],
    cancelled: ["Cancelled", "The run was cancelled before it finished."],
  };
  const stopWords = (r) => STOPS[r] || [r || "Ended", ""];

  // ---- views and navigation ----------------------------------------------

  let current = null; // AbortController of the view's streams and polls

  function route() {
    if (current) current.abort();
    current = new AbortController();
    const sig = current.signal;
    hideError();
    const p = location.pathname;
    let view = "ask";
    let m;
    if (p === "/ui/batch" || p.startsWith("/ui/batches/")) view = "batch";
    if (p === "/ui/releases") view = "releases";
    for (const v of ["ask", "batch", "releases"]) $("view-" + v).hidden = v !== view;
    document.querySelectorAll("nav a[data-view]").forEach((a) => {
      if (a.dataset.view === view) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    });
    if ((m = p.match(/^\/ui\/questions\/([^/]+)$/))) {
      openQuestion(decodeURIComponent(m[1]), sig);
    } else if ((m = p.match(/^\/ui\/batches\/([^/]+)$/))) {
      openBatch(decodeURIComponent(m[1]), sig);
    } else if (view === "releases") {
      openReleases(sig);
    } else if (view === "batch") {
      $("batch").hidden = true;
      document.title = "assay · batch";
    } else {
      const q = new URLSearchParams(location.search).get("q");
      $("run").hidden = true;
      document.title = "assay";
      // A ?q= link fills the box and waits for the user to ask: a link on
      // another site must not spend this tab's key or budget by itself.
      if (q) $("question").value = q;
      $("question").focus();
    }
  }

  function go(path) {
    history.pushState(null, "", path);
    route();
  }

  // ---- ask ---------------------------------------------------------------

  let askBlockedUntil = 0;

  async function ask(question, sig) {
    if (Date.now() < askBlockedUntil) {
      showError(new APIError(429, null, Math.ceil((askBlockedUntil - Date.now()) / 1000)));
      return;
    }
    resetRun(question);
    setStatus("Submitting…");
    let acc;
    try {
      acc = await api("/v1/questions", {
        method: "POST", signal: sig,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ question }),
      });
    } catch (e) {
      if (sig.aborted) return;
      if (e.status === 429 && e.retryAfter) askBlockedUntil = Date.now() + e.retryAfter * 1000;
      setStatus("Not asked: " + e.message);
      showError(e);
      return;
    }
    if (sig.aborted) return;
    // The address now names the run, so a reload re-opens it instead of
    // asking again; the ?q= link to share stays on the page.
    history.replaceState(null, "", "/ui/questions/" + encodeURIComponent(acc.id));
    follow(acc.id, sig);
  }

  function resetRun(question) {
    $("run").hidden = false;
    clear($("steps"));
    $("steps-section").hidden = true;
    $("trace").hidden = true;
    $("draft").hidden = true;
    $("draft-text").textContent = "";
    $("result").hidden = true;
    $("passage").hidden = true;
    clear($("trace-body")).append(el("p", { class: "hint", text: "The trace appears when the run ends." }));
    document.title = "assay · " + question;
    steps = {};
  }
  const setStatus = (s) => { $("run-status").textContent = s; };

  async function openQuestion(id, sig) {
    resetRun("");
    setStatus("Loading question " + id + "…");
    let q;
    try {
      q = await api("/v1/questions/" + encodeURIComponent(id), { signal: sig });
    } catch (e) {
      if (sig.aborted) return;
      setStatus("Could not open question " + id + ".");
      showError(e);
      return;
    }
    $("question").value = q.question || "";
    document.title = "assay · " + (q.question || id);
    if (q.status === "running") follow(id, sig);
    else showResult(id, q, sig);
  }

  // follow reads the run's event stream with fetch, so the key stays in a
  // header, resuming with Last-Event-ID when the stream breaks.
  async function follow(id, sig) {
    setStatus("Running…");
    let last = "";
    for (let tries = 0; tries < 6 && !sig.aborted; tries++) {
      let done = false;
      try {
        const headers = { "Accept": "text/event-stream" };
        if (last) headers["Last-Event-ID"] = last;
        const resp = await api("/v1/questions/" + encodeURIComponent(id) + "/events", { signal: sig, headers, raw: true });
        if (resp.status === 204) {
          // The run had ended before this stream: read its result instead.
          const q = await api("/v1/questions/" + encodeURIComponent(id), { signal: sig });
          showResult(id, q, sig);
          return;
        }
        await readSSE(resp, sig, (ev) => {
          if (ev.id) last = ev.id;
          if (ev.event === "stage") onStage(id, JSON.parse(ev.data), sig);
          else if (ev.event === "token") onToken(JSON.parse(ev.data));
          else if (ev.event === "result") { done = true; showResult(id, JSON.parse(ev.data), sig); }
          else if (ev.event === "error") setStatus("The event stream broke off; reconnecting…");
        });
      } catch (e) {
        if (sig.aborted) return;
        if (e instanceof APIError && e.status !== 503 && e.status !== 0 && e.status !== 429) {
          setStatus("Could not follow the run.");
          showError(e);
          return;
        }
        showError(e);
        await sleep(((e.retryAfter || 2) * 1000), sig);
        continue;
      }
      if (done) return;
      await sleep(1000, sig);
    }
    if (!sig.aborted) setStatus("Lost the event stream; reload the page to look again.");
  }

  const sleep = (ms, sig) => new Promise((res) => {
    const t = setTimeout(res, ms);
    if (sig) sig.addEventListener("abort", () => { clearTimeout(t); res(); }, { once: true });
  });

  // readSSE parses a text/event-stream body, calling on for each event.
  async function readSSE(resp, sig, on) {
    const reader = resp.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    let ev = { event: "message", data: "", id: "" };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += dec.decode(value, { stream: true });
        let nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl).replace(/\r$/, "");
          buf = buf.slice(nl + 1);
          if (line === "") {
            if (ev.data !== "") on(Object.assign({}, ev, { data: ev.data.replace(/\n$/, "") }));
            ev = { event: "message", data: "", id: "" };
          } else if (line.startsWith(":")) {
            // keep-alive comment
          } else {
            const i = line.indexOf(":");
            const field = i < 0 ? line : line.slice(0, i);
            const val = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
            if (field === "data") ev.data += val + "\n";
            else if (field === "event") ev.event = val;
            else if (field === "id") ev.id = val;
          }
        }
      }
    } finally {
      if (sig.aborted) reader.cancel().catch(() => {});
    }
  }

  // steps holds the list item of each attempt's stage.
  let steps = {};
  const STAGE_WORDS = {
    search: (e) => ["Searching", "for “" + e.query + "”"],
    assess: () => ["Assessing", "is the evidence enough to answer?"],
    rewrite: (e) => ["Rewriting", "the evidence was not enough; next query “" + e.query + "”"],
    generate: () => ["Generating", "writing the answer from the accepted passages"],
  };

  function onStage(id, e, sig) {
    const words = (STAGE_WORDS[e.stage] || (() => [e.stage, ""]))(e);
    document.querySelectorAll("#steps li.active").forEach((li) => li.classList.remove("active"));
    const li = el("li", { class: "active", "data-stage": e.stage },
      el("span", { class: "attempt", text: e.stage === "generate" ? "answer" : "attempt " + e.attempt }),
      el("strong", { text: words[0] }), " ", words[1], el("span", { class: "detail" }));
    $("steps").append(li);
    $("steps-section").hidden = false;
    steps[e.stage + ":" + e.attempt] = li;
    setStatus(words[0] + "…");
    // When an attempt's assessment is in, show its score beside it.
    if (e.stage === "rewrite" || e.stage === "generate") enrichFromTrace(id, sig);
  }

  async function enrichFromTrace(id, sig) {
    try {
      const tr = await api("/v1/questions/" + encodeURIComponent(id) + "/trace", { signal: sig });
      noteAttempts(tr);
    } catch (e) {
      // Best effort: the full trace comes with the result.
    }
  }

  function noteAttempts(tr) {
    for (const a of tr.attempts || []) {
      const s = steps["search:" + a.n];
      if (s) s.querySelector(".detail").textContent = " — " + (a.hits || []).length + " passages in " + fmtMS(a.search_ms);
      const as = steps["assess:" + a.n];
      if (as && a.assessment) {
        as.querySelector(".detail").textContent = " — score " + fmtScore(a.assessment.score) +
          (a.assessment.sufficient ? ", sufficient" : ", not sufficient") + (a.accepted ? ", accepted" : "") +
          (a.assessment.reason ? ": " + a.assessment.reason : "");
      }
    }
  }

  let draftStream = "";
  function onToken(t) {
    if (t.stream !== draftStream) { draftStream = t.stream; $("draft-text").textContent = ""; }
    if (t.text) $("draft-text").textContent += t.text;
    $("draft").hidden = false;
  }

  function showResult(id, q, sig) {
    document.querySelectorAll("#steps li.active").forEach((li) => li.classList.remove("active"));
    $("draft").hidden = true;
    $("result").hidden = false;
    if (q.status === "failed") {
      setStatus("The run failed.");
      clear($("stop")).append(el("p", { class: "stop-title", text: "The workflow failed" }),
        el("p", { text: "The run ended without a stop reason, which a healthy deployment never does. Give the operator the run id " + id + "." }));
      clear($("answer"));
      clear($("citations"));
    } else {
      const [title, help] = stopWords(q.stop_reason);
      setStatus("Done: " + title + ".");
      const box = clear($("stop"));
      box.className = "stop " + (q.stop_reason === "answered" ? "ok" : "warn");
      box.append(el("p", { class: "stop-title" }, el("strong", { text: title }), " ", el("code", { text: q.stop_reason })),
        el("p", { text: help }));
      if (q.stop_detail && q.stop_reason !== "answered") box.append(el("p", { class: "meta", text: "Detail: " + q.stop_detail }));
      renderAnswer(q);
    }
    renderFacts(id, q, null);
    $("trace").hidden = false;
    loadSources(id, q, sig);
    loadTrace(id, q, sig);
  }

  // renderAnswer turns [n] markers of issued citations into links.
  function renderAnswer(q) {
    const labels = new Set((q.citations || []).map((c) => c.label));
    const ans = clear($("answer"));
    const text = q.answer || "";
    let at = 0;
    for (const m of text.matchAll(/\[(\d+)\]/g)) {
      ans.append(text.slice(at, m.index));
      if (labels.has(m[1])) ans.append(citeLink(m[1], "[" + m[1] + "]"));
      else ans.append(m[0]);
      at = m.index + m[0].length;
    }
    ans.append(text.slice(at));
    const list = clear($("citations"));
    if (!(q.citations || []).length) list.append(el("li", { class: "none", text: "Nothing cited." }));
    for (const c of q.citations || []) {
      list.append(el("li", { id: "cite-" + c.label },
        citeLink(c.label, "[" + c.label + "] " + c.title), " ",
        el("span", { class: "meta", "data-meta": c.label, text: c.doc_id })));
    }
  }

  function citeLink(label, text) {
    return el("a", {
      href: "#source-" + label, class: "cite", "data-label": label, text,
      "aria-label": "show cited passage " + label,
      onclick: (ev) => { ev.preventDefault(); lastCite = ev.currentTarget; showPassage(label); },
    });
  }

  function renderFacts(id, q, trace) {
    const f = clear($("facts"));
    const add = (k, v) => f.append(el("div", {}, el("dt", { text: k }), el("dd", { text: v })));
    add("run", id);
    add("attempts", String(q.attempts || (trace && trace.attempts ? trace.attempts.length : 0)));
    if (trace) add("time", fmtMS(trace.total_ms || 0));
    const u = q.usage || {};
    add("tokens", (u.tokens_in || 0) + " in, " + (u.tokens_out || 0) + " out");
    add("cost", fmtCost(u.cost_usd));
    if (q.model) add("model", q.model);
    const rel = q.release || (trace && trace.release);
    if (rel) add("release", rel);
    const links = clear($("links"));
    if (config.temporal_ui_url) {
      links.append(el("a", {
        id: "temporal-link",
        href: config.temporal_ui_url + "/namespaces/" + encodeURIComponent(config.namespace) + "/workflows/" + encodeURIComponent(id),
        target: "_blank", rel: "noopener noreferrer", text: "This run in the Temporal Web UI",
      }), " · ");
    }
    if (q.question) links.append(el("a", { href: "/?q=" + encodeURIComponent(q.question), text: "Link that asks this question again" }));
  }

  // ---- sources -----------------------------------------------------------

  let sources = null; // label → source, or an APIError
  let lastCite = null; // the link that opened the passage, for focus on close

  async function loadSources(id, q, sig) {
    sources = null;
    if (!(q.citations || []).length) { sources = {}; return; }
    try {
      const s = await api("/v1/questions/" + encodeURIComponent(id) + "/sources", { signal: sig });
      sources = {};
      for (const src of s.sources) {
        sources[src.label] = src;
        const meta = document.querySelector('[data-meta="' + CSS.escape(src.label) + '"]');
        if (meta) meta.textContent = statusWord(src.status) + (src.updated ? ", " + src.updated : "");
      }
    } catch (e) {
      if (sig.aborted) return;
      sources = e;
    }
  }

  const statusWord = (s) => ({ current: "current", archived: "archived (no longer in force)", withdrawn: "withdrawn" }[s] || s);

  // webURL returns u when it is an absolute http: or https: address, and
  // "" otherwise: a document's URL comes from the corpus, and a link must
  // not run script (javascript:) or open data.
  function webURL(u) {
    try {
      const p = new URL(u);
      return p.protocol === "http:" || p.protocol === "https:" ? p.href : "";
    } catch (e) {
      return "";
    }
  }

  async function showPassage(label) {
    const box = $("passage");
    box.hidden = false;
    for (let i = 0; sources === null && i < 50; i++) await sleep(100);
    const src = sources && !(sources instanceof Error) ? sources[label] : null;
    clear($("passage-text"));
    if (sources instanceof Error) {
      $("passage-title").textContent = "[" + label + "] passage unavailable";
      $("passage-meta").textContent = sources.message;
    } else if (!src) {
      $("passage-title").textContent = "[" + label + "] passage withheld";
      $("passage-meta").textContent = "This passage is no longer in the index or no longer visible to your key.";
    } else {
      $("passage-title").textContent = "[" + label + "] " + src.title;
      $("passage-meta").textContent = statusWord(src.status) + (src.updated ? " · dated " + src.updated : "") + " · " + src.doc_id;
      for (const para of src.text.split(/\n{2,}/)) $("passage-text").append(el("p", { text: para }));
      if (src.url) {
        const href = webURL(src.url);
        $("passage-text").append(href
          ? el("p", {}, el("a", { href, rel: "noopener noreferrer", target: "_blank", text: "Open the document" }))
          : el("p", { text: "Document: " + src.url }));
      }
    }
    box.focus();
  }

  // ---- trace -------------------------------------------------------------

  async function loadTrace(id, q, sig) {
    let tr;
    try {
      tr = await api("/v1/questions/" + encodeURIComponent(id) + "/trace", { signal: sig });
    } catch (e) {
      if (sig.aborted) return;
      clear($("trace-body")).append(el("p", { class: "error", text: "The trace could not be read: " + e.message }));
      return;
    }
    noteAttempts(tr);
    renderFacts(id, q, tr);
    renderTrace(tr);
  }

  function renderTrace(tr) {
    const body = clear($("trace-body"));
    const routesOf = (n) => (tr.routes || []).filter((r) => r.attempt === n);
    let maxMS = tr.generate_ms || 0;
    for (const a of tr.attempts || []) maxMS = Math.max(maxMS, a.search_ms || 0, a.assess_ms || 0);
    for (const a of tr.attempts || []) {
      const sec = el("section", { class: "attempt-trace", "aria-label": "attempt " + a.n });
      sec.append(el("h3", {}, "Attempt " + a.n + " ", el("span", { class: a.accepted ? "badge ok" : "badge", text: a.accepted ? "accepted" : "not accepted" })),
        el("p", {}, "Query: ", el("q", { text: a.query })));
      // Timing bars: the activities, then retrieval's own stages.
      const bars = el("div", { class: "bars", role: "list", "aria-label": "time per stage" });
      const bar = (name, ms, sub) => bars.append(el("div", { class: "bar-row" + (sub ? " sub" : ""), role: "listitem" },
        el("span", { class: "bar-name", text: name }),
        el("span", { class: "bar-track" }, el("span", { class: "bar", "data-w": String(Math.max(1, Math.round(100 * ms / (maxMS || 1)))) })),
        el("span", { class: "bar-ms", text: fmtMS(ms) })));
      bar("search", a.search_ms || 0);
      for (const st of a.stages || []) bar(st.name, st.ms || 0, true);
      if (a.assess_ms !== undefined) bar("assess", a.assess_ms || 0);
      sec.append(bars);
      // Assessment.
      if (a.assessment) {
        const as = a.assessment;
        sec.append(el("p", { class: "assessment" }, el("strong", { text: "Assessment: " }),
          "score " + fmtScore(as.score) + ", " + (as.sufficient ? "sufficient" : "not sufficient") + ". ", as.reason || "",
          as.rewrite ? el("span", {}, " Rewrite: ", el("q", { text: as.rewrite })) : ""));
      }
      sec.append(stageTable(a));
      const rs = routesOf(a.n);
      if (rs.length) sec.append(routeList(rs));
      if ((a.warnings || []).length) sec.append(el("ul", { class: "warnings", "aria-label": "warnings" }, a.warnings.map((w) => el("li", { text: "⚠ " + w }))));
      body.append(sec);
    }
    if (tr.generation || (tr.routes || []).some((r) => r.attempt === 0)) {
      const g = tr.generation || {};
      const sec = el("section", { class: "attempt-trace", "aria-label": "generation" }, el("h3", { text: "Generation" }));
      const bars = el("div", { class: "bars" }, el("div", { class: "bar-row" }, el("span", { class: "bar-name", text: "generate" }),
        el("span", { class: "bar-track" }, el("span", { class: "bar", "data-w": String(Math.max(1, Math.round(100 * (tr.generate_ms || 0) / (maxMS || 1)))) })),
        el("span", { class: "bar-ms", text: fmtMS(tr.generate_ms || 0) })));
      sec.append(bars);
      if (g.model) sec.append(el("p", {}, "Model " + g.model + (g.prompt_version ? ", prompt " + g.prompt_version : "") + (g.finish_reason ? ", finished: " + g.finish_reason : "")));
      if ((g.sources || []).length) sec.append(el("p", {}, "Labels issued: " + g.sources.map((s) => "[" + s.label + "] " + s.chunk_id).join(", ")));
      for (const d of g.dropped || []) sec.append(el("p", { class: "warnings", text: "Left out by the prompt budget: " + JSON.stringify(d) }));
      for (const s of g.stripped || []) sec.append(el("p", { class: "warnings", text: "Citation marker removed: " + JSON.stringify(s) }));
      for (const f of g.grounding || []) sec.append(el("p", { class: "warnings", text: "Grounding check: " + JSON.stringify(f) }));
      const rs = routesOf(0);
      if (rs.length) sec.append(routeList(rs));
      body.append(sec);
    }
    const end = el("section", { class: "attempt-trace", "aria-label": "end of run" }, el("h3", { text: "End" }),
      el("p", {}, "Stop reason ", el("code", { text: tr.stop_reason || "" }), tr.stop_detail ? ": " + tr.stop_detail : ""),
      el("p", { text: "Total " + fmtMS(tr.total_ms || 0) + (tr.best_attempt ? "; best attempt " + tr.best_attempt : "") }));
    for (const e of tr.errors || []) end.append(el("p", { class: "error", text: "Error: " + e }));
    for (const w of tr.warnings || []) end.append(el("p", { class: "warnings", text: "⚠ " + w }));
    body.append(end);
    // Widths from data attributes: the page's policy allows no inline styles in markup.
    body.querySelectorAll(".bar").forEach((b) => { b.style.width = b.dataset.w + "%"; });
  }

  // stageTable shows, for each passage any stage ranked in its top ten,
  // where it was and whether the final hits kept it.
  function stageTable(a) {
    // Stages that rank (leave a top list) get a column; the others (the
    // embedder) only a note.
    const all = a.stages || [];
    const stages = all.filter((st) => (st.top || []).length);
    const hits = a.hits || [];
    const hitBy = new Map(hits.map((h, i) => [h.chunk_id, [h, i + 1]]));
    const ids = [];
    for (const h of hits) ids.push(h.chunk_id);
    for (const st of stages) for (const id of st.top || []) if (!ids.includes(id)) ids.push(id);
    const head = el("tr", {}, el("th", { scope: "col", text: "passage" }),
      stages.map((st) => el("th", { scope: "col", title: st.candidates + " candidates", text: st.name })),
      el("th", { scope: "col", text: "final" }), el("th", { scope: "col", text: "score" }));
    const rows = ids.map((id) => {
      const hit = hitBy.get(id);
      let lastIn = -1;
      const cells = stages.map((st, i) => {
        const r = (st.top || []).indexOf(id);
        if (r >= 0) lastIn = i;
        return el("td", { class: r >= 0 ? "in" : "out", text: r >= 0 ? "#" + (r + 1) : "—" });
      });
      let fate;
      if (hit) fate = "kept #" + hit[1];
      else if (lastIn >= 0 && lastIn + 1 < stages.length) fate = "dropped at " + stages[lastIn + 1].name;
      else fate = "cut: below the top " + hits.length;
      return el("tr", {}, el("th", { scope: "row" }, hit ? el("span", {}, hit[0].title, el("br"), el("small", { text: id + " · " + hit[0].status })) : el("small", { text: id })),
        cells, el("td", { class: hit ? "in" : "out", text: fate }), el("td", { text: hit ? fmtScore(hit[0].score) : "" }));
    });
    const notes = all.filter((st) => st.note).map((st) => el("li", {}, el("strong", { text: st.name + ": " }), st.note + " (" + st.candidates + " candidates)"));
    return el("div", {},
      el("div", { class: "scroll" }, el("table", { class: "grid stages" },
        el("caption", { text: "Passages by stage: #rank in each stage's top ten, “—” not in it." }),
        el("thead", {}, head), el("tbody", {}, rows))),
      notes.length ? el("ul", { class: "notes", "aria-label": "what each stage did" }, notes) : "");
  }

  function routeList(rs) {
    return el("ul", { class: "routes", "aria-label": "route decisions" }, rs.map((r) => {
      const d = r.decision || {};
      return el("li", {}, el("strong", { text: d.task + " → " + d.model }), " rule ", el("code", { text: d.rule }),
        d.reason ? ": " + d.reason : "", " · ", el("span", { class: r.outcome === "ok" ? "ok" : "error", text: r.outcome }));
    }));
  }

  // ---- batches -----------------------------------------------------------

  async function startBatch(sig) {
    const file = $("batch-file").files[0];
    if (!file) { showError(new Error("choose a JSONL file first")); return; }
    const text = await file.text();
    let acc;
    try {
      acc = await api("/v1/batches", { method: "POST", signal: sig, headers: { "Content-Type": "application/jsonl" }, body: text });
    } catch (e) {
      showError(e);
      return;
    }
    go("/ui/batches/" + encodeURIComponent(acc.id));
  }

  let batchID = "";

  async function openBatch(id, sig) {
    batchID = id;
    $("batch").hidden = false;
    $("batch-confirm").hidden = true;
    $("batch-title").textContent = "Batch " + id;
    document.title = "assay · batch " + id;
    clear($("batch-items").tBodies[0]);
    let n = 0;
    while (!sig.aborted) {
      let b;
      try {
        b = await api("/v1/batches/" + encodeURIComponent(id), { signal: sig });
      } catch (e) {
        if (sig.aborted) return;
        showError(e);
        if (e.status === 404 || e.status === 401) return;
        await sleep((e.retryAfter || 3) * 1000, sig);
        continue;
      }
      hideError();
      renderBatch(b);
      const running = b.status === "running";
      // While it runs, the first page every few seconds; at the end, all.
      if (!running || n % 3 === 0) await loadBatchItems(id, sig, running ? 100 : 1000);
      if (!running) return;
      n++;
      await sleep(1000, sig);
    }
  }

  function renderBatch(b) {
    const g = b.aggregate || { total: 0, stop_reasons: {} };
    const finished = (g.done || 0) + (g.failed || 0) + (g.cancelled || 0);
    const p = $("batch-progress");
    p.max = Math.max(1, g.total || 0);
    p.value = finished;
    $("batch-status").textContent = b.status + ": " + finished + " of " + g.total + " questions finished (" +
      (g.running || 0) + " running, " + (g.pending || 0) + " waiting" + (g.failed ? ", " + g.failed + " failed" : "") +
      (g.cancelled ? ", " + g.cancelled + " cancelled" : "") + ").";
    $("batch-cancel").hidden = b.status !== "running";
    const f = clear($("batch-aggregate"));
    const add = (k, v) => f.append(el("div", {}, el("dt", { text: k }), el("dd", { text: v })));
    add("latency p50", fmtMS(g.latency_p50_ms || 0));
    add("latency p95", fmtMS(g.latency_p95_ms || 0));
    add("tokens", (g.tokens_in || 0) + " in, " + (g.tokens_out || 0) + " out");
    add("cost", fmtCost(g.cost_usd));
    const tb = clear($("batch-reasons").tBodies[0]);
    const reasons = Object.entries(g.stop_reasons || {}).sort((x, y) => y[1] - x[1]);
    if (!reasons.length) tb.append(el("tr", {}, el("td", { colspan: "3", text: "No question has finished yet." })));
    for (const [r, c] of reasons) tb.append(el("tr", {}, el("td", {}, el("code", { text: r })), el("td", { text: String(c) }), el("td", { text: stopWords(r)[0] })));
  }

  async function batchPages(id, sig, max) {
    const items = [];
    let cursor = "";
    do {
      const page = await api("/v1/batches/" + encodeURIComponent(id) + "/results?limit=100" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""), { signal: sig });
      items.push(...page.items);
      cursor = page.next_cursor || "";
    } while (cursor && items.length < max);
    return { items, more: !!cursor };
  }

  async function loadBatchItems(id, sig, max) {
    let r;
    try {
      r = await batchPages(id, sig, max);
    } catch (e) {
      if (!sig.aborted) showError(e);
      return;
    }
    const tb = clear($("batch-items").tBodies[0]);
    for (const it of r.items) {
      const ans = (it.answer || it.error || "").slice(0, 120);
      tb.append(el("tr", {},
        el("th", { scope: "row" }, it.status === "pending" || it.status === "cancelled" ? it.id :
          el("a", { href: "/ui/questions/" + encodeURIComponent(it.question_id), "data-nav": "", text: it.id })),
        el("td", { text: it.status }), el("td", {}, it.stop_reason ? el("code", { text: it.stop_reason }) : ""),
        el("td", { text: it.latency_ms ? fmtMS(it.latency_ms) : "" }), el("td", { text: ans + (ans.length === 120 ? "…" : "") })));
    }
    $("batch-more").textContent = r.more ? "Showing the first " + r.items.length + " questions; the download has them all." : "";
  }

  async function downloadBatch() {
    const id = batchID;
    const btn = $("batch-download");
    btn.disabled = true;
    try {
      const r = await batchPages(id, undefined, Infinity);
      const blob = new Blob(r.items.map((it) => JSON.stringify(it) + "\n"), { type: "application/jsonl" });
      const a = el("a", { href: URL.createObjectURL(blob), download: "batch-" + id + ".results.jsonl" });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    } catch (e) {
      showError(e);
    } finally {
      btn.disabled = false;
    }
  }

  async function cancelBatch() {
    $("batch-confirm").hidden = true;
    try {
      await api("/v1/batches/" + encodeURIComponent(batchID), { method: "DELETE" });
      $("batch-status").textContent = "Cancelling…";
    } catch (e) {
      showError(e);
    }
  }

  // ---- releases ----------------------------------------------------------

  async function openReleases(sig) {
    document.title = "assay · releases";
    $("releases-status").textContent = "Reading the releases…";
    while (!sig.aborted) {
      let r;
      try {
        r = await api("/v1/releases", { signal: sig });
      } catch (e) {
        if (sig.aborted) return;
        $("releases").hidden = true;
        $("releases-status").textContent = e.status === 403
          ? "This key may not read the releases (403): they are operator data, for keys in the gateway's releases group."
          : "The releases could not be read.";
        showError(e);
        if (e.status === 401 || e.status === 403) return;
        await sleep((e.retryAfter || 3) * 1000, sig);
        continue;
      }
      hideError();
      renderReleases(r);
      await sleep(2000, sig);
    }
  }

  const pct = (x) => (typeof x === "number" ? Math.round(x * 100) + "%" : "");
  const rate = (n, runs) => (runs ? n + " (" + pct(n / runs) + ")" : String(n || 0));
  const when = (t) => (t ? new Date(t).toLocaleString() : "");

  function renderReleases(r) {
    $("releases").hidden = false;
    const rs = r.releases || [];
    $("releases-status").textContent = r.candidate
      ? "Canary: " + r.candidate + " takes " + r.share + "% of new runs, " + r.stable + " the rest."
      : r.stable ? "Every new run is on " + r.stable + "." : "No release was promoted yet: runs use what the workers serve.";
    const f = clear($("releases-active"));
    const add = (k, v) => f.append(el("div", {}, el("dt", { text: k }), el("dd", { text: v })));
    add("stable", r.stable || "none");
    add("candidate", r.candidate ? r.candidate + " at " + r.share + "%" : "none (no canary)");
    if ((r.previous || []).length) add("rollback returns to", r.previous[0]);
    add("releases", String(rs.length));

    const p = r.progress;
    $("releases-progress").hidden = !p;
    if (p) {
      $("releases-progress-state").textContent = p.release + " against " + p.stable + ": " + p.state +
        (p.state === "canary" ? " at " + p.share + "%" : "") + (p.paused ? ", paused" : "") +
        (p.waiting ? ", waiting for " + p.waiting : "") + (p.reason ? ". " + p.reason : "");
      const gate = $("releases-gate");
      gate.hidden = !(p.gate || []).length;
      const gb = clear(gate.tBodies[0]);
      for (const g of p.gate || []) {
        gb.append(el("tr", {}, el("td", { text: g.release }), el("td", { text: String(g.questions || 0) }),
          el("td", { text: pct(g.right_source_cited) }), el("td", { text: pct(g.no_answer_refusal) }),
          el("td", { text: pct(g.citation_validity) }), el("td", { text: String(g.leaks || 0) }),
          el("td", { text: String(g.runs_failed || 0) }), el("td", { text: fmtMS(g.p95_ms || 0) })));
      }
      const steps = $("releases-steps");
      steps.hidden = !(p.steps || []).length;
      const sb = clear(steps.tBodies[0]);
      (p.steps || []).forEach((st, i) => {
        const last = i === p.steps.length - 1;
        const verdict = st.passed ? "passed" : last && p.state === "rolled_back" ? "rolled back" : last ? "in progress" : "";
        const row = (name, w, first) => {
          w = w || {};
          const tr = el("tr", {});
          if (first) tr.append(el("td", { rowspan: "2", text: st.share + "%" }));
          tr.append(el("td", { text: name }), el("td", { text: String(w.runs || 0) }),
            el("td", { text: rate(w.errors || 0, w.runs) }), el("td", { text: rate(w.refused || 0, w.runs) }),
            el("td", { text: rate(w.insufficient_context || 0, w.runs) }), el("td", { text: fmtMS(w.p95_ms || 0) }),
            el("td", { text: w.cost_runs ? fmtCost(w.cost_usd / w.cost_runs) : "" }));
          if (first) tr.append(el("td", { rowspan: "2", text: verdict }));
          return tr;
        };
        const w = st.window || {};
        sb.append(row("candidate " + p.release, w.candidate, true), row("stable " + p.stable, w.stable, false));
      });
    }

    const hb = clear($("releases-history").tBodies[0]);
    if (!rs.length) hb.append(el("tr", {}, el("td", { colspan: "7", text: "No release yet." })));
    for (const x of rs) {
      const tag = x.name === r.stable ? " (stable)" : x.name === r.candidate ? " (candidate)" : "";
      hb.append(el("tr", {}, el("td", {}, el("strong", { text: x.name }), tag), el("td", {}, el("code", { text: x.state })),
        el("td", { text: x.share + "%" }), el("td", { text: x.reason || "" }), el("td", { text: x.index || "" }),
        el("td", { text: when(x.created_at) }), el("td", { text: x.note || "" })));
    }
  }

  // ---- wiring ------------------------------------------------------------

  function init() {
    setKey(getKey());
    $("key-button").addEventListener("click", () => toggleKeyPanel());
    $("key-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      setKey($("key-input").value.trim());
      $("key-input").value = "";
      toggleKeyPanel(false);
      hideError();
      route();
    });
    $("key-clear").addEventListener("click", () => { setKey(""); $("key-input").value = ""; toggleKeyPanel(false); });
    $("ask-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const q = $("question").value.trim();
      if (!q) return;
      if (current) current.abort();
      current = new AbortController();
      hideError();
      ask(q, current.signal);
    });
    $("question").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) { ev.preventDefault(); $("ask-form").requestSubmit(); }
    });
    const closePassage = () => {
      $("passage").hidden = true;
      if (lastCite && document.contains(lastCite)) lastCite.focus();
    };
    $("passage-close").addEventListener("click", closePassage);
    $("passage").addEventListener("keydown", (ev) => { if (ev.key === "Escape") closePassage(); });
    $("batch-form").addEventListener("submit", (ev) => { ev.preventDefault(); hideError(); startBatch(current ? current.signal : undefined); });
    $("batch-download").addEventListener("click", downloadBatch);
    $("batch-cancel").addEventListener("click", () => { $("batch-confirm").hidden = false; $("batch-confirm-no").focus(); });
    $("batch-confirm-no").addEventListener("click", () => { $("batch-confirm").hidden = true; $("batch-cancel").focus(); });
    $("batch-confirm-yes").addEventListener("click", cancelBatch);
    document.addEventListener("click", (ev) => {
      const a = ev.target.closest && ev.target.closest("a[data-nav]");
      if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
      ev.preventDefault();
      go(a.getAttribute("href"));
    });
    window.addEventListener("popstate", route);
    fetch("/ui/config.json").then((r) => r.json()).then((c) => { config = Object.assign(config, c); })
      .catch(() => {}).finally(route);
  }

  init();
})();
