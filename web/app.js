// gpuplan in the browser (#48): one module, run twice. In the page it draws the form and the
// results; in a Web Worker (the same file, started by the page) it holds the engine, compiled to
// WebAssembly, so that a long calculation never freezes the page. Nothing is sent anywhere: the
// workbook is read from the disk by the browser, planned in the worker and offered back as a
// download (blob: URLs).

const inWorker = typeof document === "undefined";

if (inWorker) {
  worker();
} else {
  page();
}

// ---- The worker: the engine ----

function worker() {
  let engine = null;
  // The engine's panic hook writes its message here just before the trap.
  let panic = "";
  const consoleError = console.error;
  console.error = (...args) => {
    const text = args.join(" ");
    if (text.startsWith("gpuplan panic: ")) panic = text.slice("gpuplan panic: ".length);
    consoleError(...args);
  };
  const load = async () => {
    if (!engine) {
      const m = await import("./pkg/gpuplan_web.js");
      await m.default();
      engine = m;
    }
    return engine;
  };
  self.onmessage = async (event) => {
    const { id, op, args } = event.data;
    try {
      const e = await load();
      let result;
      const transfer = [];
      switch (op) {
        case "hello":
          result = { version: e.version(), samples: e.samples() };
          break;
        case "refuse":
          result = e.refuseSize(args.name, args.size, args.lang) ?? null;
          break;
        case "calc": {
          self.postMessage({ id, progress: true });
          const p = e.calc(args.name, new Uint8Array(args.bytes), JSON.stringify(args.options));
          const workbook = p.workbook;
          result = {
            workbook,
            workbookName: p.workbookName,
            json: p.json,
            jsonName: p.jsonName,
            summary: p.summary,
            screen: JSON.parse(p.screen),
          };
          p.free();
          transfer.push(workbook.buffer);
          break;
        }
        case "template":
          result = e.template(args.lang, args.now);
          transfer.push(result.buffer);
          break;
        case "sample":
          result = e.sample(args.name);
          if (result) transfer.push(result.buffer);
          break;
        default:
          throw new Error(`unknown request ${op}`);
      }
      self.postMessage({ id, ok: true, result }, transfer);
    } catch (err) {
      // An error of the engine is the CLI's text; a trap (a bug) ends this worker's engine.
      const trap = err instanceof WebAssembly.RuntimeError;
      const text = trap
        ? `error: internal error: ${panic || err.message}\nThis is a bug in gpuplan; please report it with the input file.`
        : String(err && err.message !== undefined ? err.message : err);
      self.postMessage({ id, ok: false, error: text, trap });
    }
  };
}

// ---- The page ----

const WORDS = {
  en: {
    title: "gpuplan — a GPU budget from your workbook",
    language: "Language",
    lede: "Drop the budget workbook (the template of gpuplan init, filled in) and get the plan workbook for finance. It is planned here, in this browser: the file is never uploaded.",
    drop: "Drop budget.xlsx here, or choose it:",
    margin: "Safety margin (share, e.g. 0.2)",
    ceiling: "Budget ceiling a month",
    fleet: "Fleet (cards shared)",
    asWorkbook: "as the workbook says",
    yes: "yes",
    no: "no",
    plan: "Plan again",
    whatif: "Left blank, a field keeps the workbook's value; filled, it is what gpuplan calc --set does.",
    summary: "Summary",
    cuts: "Budget ceiling and cuts",
    fleetTitle: "Fleet",
    warnings: "Warnings and notes",
    start: "Start from a template or a sample",
    template: "The template (gpuplan init)",
    footer: "Made by gpuplan's engine compiled to WebAssembly; the same bytes as the command line gives.",
    loading: "Loading the engine…",
    ready: "Ready: drop a workbook.",
    planning: (name, s) => `Planning ${name}… ${s} s`,
    planned: (name, s) => `Planned ${name} in ${s} s.`,
    failed: (name) => `${name} could not be planned:`,
    download: (name) => `Download ${name}`,
    noFleet: "No cards are shared: every workload runs on cards of its own.",
    noCuts: "No budget ceiling is set (budget_monthly).",
    warnHead: ["severity", "where", "message"],
    severity: { warning: "warning", info: "note" },
    none: "None.",
    sample: (name) => `Download ${name}`,
    trySample: (name) => `Plan ${name}`,
  },
  zh: {
    title: "gpuplan —— 用你的表格算 GPU 预算",
    language: "语言",
    lede: "拖入预算表（gpuplan init 生成并填好的模板），即可得到交给财务的方案表。计算就在这个浏览器里完成，文件不会上传。",
    drop: "把 budget.xlsx 拖到这里，或选择文件：",
    margin: "安全边际（比例，如 0.2）",
    ceiling: "每月预算上限",
    fleet: "卡群（共享显卡）",
    asWorkbook: "按表格中的设置",
    yes: "是",
    no: "否",
    plan: "重新计算",
    whatif: "留空则沿用表格中的值；填写则相当于 gpuplan calc --set。",
    summary: "汇总",
    cuts: "预算上限与降级方案",
    fleetTitle: "卡群",
    warnings: "警告与说明",
    start: "从模板或示例开始",
    template: "模板（gpuplan init）",
    footer: "由编译为 WebAssembly 的 gpuplan 引擎计算，结果与命令行逐字节相同。",
    loading: "正在加载计算引擎……",
    ready: "就绪：请拖入预算表。",
    planning: (name, s) => `正在计算 ${name}…… ${s} 秒`,
    planned: (name, s) => `${name} 已算完，用时 ${s} 秒。`,
    failed: (name) => `${name} 无法计算：`,
    download: (name) => `下载 ${name}`,
    noFleet: "没有共享显卡：每个负载使用自己的显卡。",
    noCuts: "未设置预算上限（budget_monthly）。",
    warnHead: ["级别", "位置", "内容"],
    severity: { warning: "警告", info: "说明" },
    none: "无。",
    sample: (name) => `下载示例 ${name}`,
    trySample: (name) => `计算示例 ${name}`,
  },
};

function page() {
  const $ = (id) => document.getElementById(id);
  const state = { lang: "en", file: null, busy: false, urls: [], samples: [], ready: false };
  const query = new URLSearchParams(location.search);
  // As SOURCE_DATE_EPOCH does for the command line: a fixed time for the stamp and the input's
  // date, so that the page's workbook can be compared byte for byte with the CLI's.
  const epoch = query.get("source_date_epoch");
  const fixed = epoch !== null && /^-?\d+$/.test(epoch.trim()) ? Number(epoch.trim()) : null;
  if (query.get("lang") === "zh") state.lang = "zh";

  // The worker and its requests.
  let engine = null;
  let next = 1;
  const waiting = new Map();
  const start = () => {
    engine = new Worker(new URL(import.meta.url), { type: "module" });
    engine.onmessage = (event) => {
      const m = event.data;
      const w = waiting.get(m.id);
      if (!w) return;
      if (m.progress) {
        w.progress?.();
        return;
      }
      waiting.delete(m.id);
      if (m.trap) {
        engine.terminate();
        start();
      }
      m.ok ? w.resolve(m.result) : w.reject(new Error(m.error));
    };
  };
  const ask = (op, args = {}, progress = null, transfer = []) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject, progress });
      engine.postMessage({ id, op, args }, transfer);
    });
  start();

  const t = () => WORDS[state.lang];
  const status = (text) => {
    $("status").textContent = text;
  };
  const showError = (text) => {
    $("error").textContent = text;
    $("error").hidden = !text;
  };
  const now = () => (fixed !== null ? fixed : Math.floor(Date.now() / 1000));
  const dateOf = (secs) => new Date(secs * 1000).toISOString().slice(0, 10);
  const blobUrl = (bytes, type) => {
    const url = URL.createObjectURL(new Blob([bytes], { type }));
    state.urls.push(url);
    return url;
  };
  const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  const offer = (bytes, name) => {
    const a = document.createElement("a");
    a.href = blobUrl(bytes, XLSX);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  };

  const translate = () => {
    document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
    for (const el of document.querySelectorAll("[data-t]")) {
      const v = t()[el.dataset.t];
      if (typeof v === "string") el.textContent = v;
    }
    document.title = t().title;
    drawSamples();
  };

  const drawSamples = () => {
    const box = $("samples");
    box.replaceChildren();
    for (const name of state.samples) {
      const b = document.createElement("button");
      b.className = "plain";
      b.textContent = t().sample(name);
      b.dataset.sample = name;
      b.onclick = async () => {
        const bytes = await ask("sample", { name });
        offer(bytes, name);
      };
      const p = document.createElement("button");
      p.className = "plain";
      p.textContent = t().trySample(name);
      p.dataset.plan = name;
      p.onclick = async () => {
        const bytes = await ask("sample", { name });
        state.file = { name, bytes: bytes.buffer, modified: now() };
        run();
      };
      box.append(b, p);
    }
  };

  const cell = (tr, text, cls, tag = "td") => {
    const c = document.createElement(tag);
    c.textContent = text;
    if (cls) c.className = cls;
    tr.appendChild(c);
  };
  const table = (el, head, rows, numeric = []) => {
    el.replaceChildren();
    if (head) {
      const tr = document.createElement("tr");
      head.forEach((h) => cell(tr, h, null, "th"));
      el.appendChild(tr);
    }
    for (const r of rows) {
      const tr = document.createElement("tr");
      r.forEach((v, i) => cell(tr, v, numeric.includes(i) ? "num" : null));
      el.appendChild(tr);
    }
  };

  const draw = (out) => {
    const s = out.screen;
    for (const u of state.urls.splice(0)) URL.revokeObjectURL(u);
    const x = $("download-xlsx");
    x.href = blobUrl(out.workbook, XLSX);
    x.download = out.workbookName;
    x.textContent = t().download(out.workbookName);
    const j = $("download-json");
    j.href = blobUrl(out.json, "application/json");
    j.download = out.jsonName;
    j.textContent = t().download(out.jsonName);
    table($("workloads"), s.workloads[0], s.workloads.slice(1), [3]);
    table($("totals"), null, s.totals, [1]);
    $("cuts").replaceChildren();
    const lines = s.cuts.length ? s.cuts : [t().noCuts];
    for (const l of lines) {
      const p = document.createElement("p");
      p.textContent = l;
      $("cuts").appendChild(p);
    }
    const f = $("fleet-out");
    f.replaceChildren();
    if (s.fleet.length) {
      const tb = document.createElement("table");
      tb.id = "fleet-cards";
      table(tb, s.fleet[0], s.fleet.slice(1), [1, 4]);
      f.appendChild(tb);
    } else {
      const p = document.createElement("p");
      p.textContent = t().noFleet;
      f.appendChild(p);
    }
    const w = $("warnings");
    // Warnings first, then the notes, each in the engine's order.
    s.warnings.sort((a, b) => (a.severity === "warning" ? 0 : 1) - (b.severity === "warning" ? 0 : 1));
    if (s.warnings.length) {
      table(
        w,
        t().warnHead,
        s.warnings.map((x) => [t().severity[x.severity] ?? x.severity, x.where, x.message]),
      );
      [...w.querySelectorAll("tr")].slice(1).forEach((tr, i) => {
        if (s.warnings[i].severity === "warning") tr.className = "warning";
      });
    } else {
      table(w, null, [[t().none]]);
    }
    $("results").hidden = false;
  };

  const sets = () => {
    const out = [];
    for (const key of ["safety_margin", "budget_monthly"]) {
      const v = $(key).value.trim();
      if (v) out.push(`${key}=${v}`);
    }
    if ($("fleet").value) out.push(`fleet=${$("fleet").value}`);
    return out;
  };

  const run = async () => {
    if (!state.file || state.busy) return;
    state.busy = true;
    $("plan").disabled = true;
    showError("");
    document.body.dataset.state = "planning";
    const { name, bytes, modified } = state.file;
    const began = performance.now();
    const tick = () => status(t().planning(name, ((performance.now() - began) / 1000).toFixed(1)));
    tick();
    const timer = setInterval(tick, 250);
    const options = {
      lang: state.lang,
      sets: sets(),
      now: now(),
      saved: dateOf(fixed !== null ? fixed : modified),
    };
    try {
      const out = await ask("calc", { name, bytes: bytes.slice(0), options }, tick);
      const ms = performance.now() - began;
      draw(out);
      window.gpuplanLast = { ms, summary: out.summary, workbookName: out.workbookName };
      status(t().planned(name, (ms / 1000).toFixed(2)));
      document.body.dataset.state = "planned";
    } catch (err) {
      $("results").hidden = true;
      status(t().failed(name));
      showError(err.message);
      window.gpuplanLast = { error: err.message, ms: performance.now() - began };
      document.body.dataset.state = "failed";
    } finally {
      // Runs finished so far, for whoever waits on the page (the browser test).
      document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
      clearInterval(timer);
      state.busy = false;
      $("plan").disabled = !state.file;
    }
  };

  const choose = async (file) => {
    if (!file) return;
    showError("");
    const refusal = await ask("refuse", { name: file.name, size: file.size, lang: state.lang });
    if (refusal) {
      state.file = null;
      $("results").hidden = true;
      status(t().failed(file.name));
      showError(refusal);
      document.body.dataset.state = "failed";
      document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
      return;
    }
    state.file = { name: file.name, bytes: await file.arrayBuffer(), modified: Math.floor(file.lastModified / 1000) };
    run();
  };

  document.addEventListener("DOMContentLoaded", async () => {
    $("lang").value = state.lang;
    translate();
    status(t().loading);
    $("lang").onchange = () => {
      state.lang = $("lang").value;
      translate();
      if (state.file) run();
      else status(state.ready ? t().ready : t().loading);
    };
    $("file").onchange = () => choose($("file").files[0]);
    const drop = $("drop");
    drop.ondragover = (e) => {
      e.preventDefault();
      drop.classList.add("over");
    };
    drop.ondragleave = () => drop.classList.remove("over");
    drop.ondrop = (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      choose(e.dataTransfer.files[0]);
    };
    $("plan").onclick = run;
    for (const id of ["safety_margin", "budget_monthly"]) {
      $(id).onkeydown = (e) => {
        if (e.key === "Enter") run();
      };
    }
    $("template").onclick = async () => {
      const bytes = await ask("template", { lang: state.lang, now: now() });
      offer(bytes, "budget.xlsx");
    };
    try {
      const hello = await ask("hello");
      state.samples = hello.samples;
      $("version").textContent = `gpuplan ${hello.version}`;
      state.ready = true;
      $("template").disabled = false;
      drawSamples();
      status(t().ready);
      // The engine is loaded: from here on the page requests nothing.
      document.body.dataset.ready = "yes";
    } catch (err) {
      showError(err.message);
    }
  });
}
