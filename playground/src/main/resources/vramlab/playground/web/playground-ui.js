/*
 * The playground's page: it draws the controls and shows what the kit's Java says. Every
 * number, map and message comes from vramlab-playground.js (the kit's cores compiled by TeaVM):
 * vramlabPlayground(chapter), vramlabReplay(trace, policy, card, steps), vramlabLab(chapter),
 * each returning JSON. This script holds no rule of any allocator.
 *
 * A standalone page reads its starting state from the address's fragment:
 *   #trace=<text>&policy=toy|pytorch|pytorch+expandable&card=40MiB&run&lab
 * (run: replay to the end at once; lab: run the chapter's lab at once).
 *
 * The student edition's bundle is compiled from the cores as handed out, every graded step a
 * Todo, and its page also loads vramlab-playground-recorded.js (vramlabRecorded): what the
 * reference answered for the preset inputs when the site was built. For an input that is exactly
 * a preset (the chapter's trace, on its card, under one of the menu's policies; the lab) the page
 * shows that recording and says so; any other input runs live, until it needs a graded step,
 * and then the replay's error names the step.
 */
(function () {
  "use strict";

  var POLICIES = [
    ["toy", "toy (the simplified policy chapter 3 starts from)"],
    ["pytorch", "pytorch (CUDACachingAllocator defaults)"],
    ["pytorch+expandable", "pytorch + expandable segments"]
  ];

  var RECORDED = typeof vramlabRecorded === "object" ? vramlabRecorded : null;
  // The student edition's note, each page saying what it has: a trace page (trace, policy, card,
  // the lab) or a lab-only page (its "Run the lab" button, nothing else to type in).
  var RECORDED_START = "Student edition: this page holds the kit's cores as you received them, every graded step "
      + "left out (they are yours to write). ";
  var RECORDED_NOTE = RECORDED_START + "The preset trace, under each policy on its card, and the lab show "
      + "results recorded from the reference when this site was built; a trace of your own is read and checked "
      + "here, and its replay stops at the first graded step it needs, naming it. On your own cores, ";
  var RECORDED_LAB_NOTE = RECORDED_START + "Run the lab shows the lab's output recorded from the reference "
      + "when this site was built. On your own cores, ";

  /** The recorded answer for a preset replay, or null (no recording: run it live). */
  function recordedReplay(p, trace, policy, card, n) {
    var rec = RECORDED && RECORDED[p.id];
    var runs = rec && rec.replay[policy];
    if (!runs || trace !== p.trace || card !== p.card) return null;
    return runs[n < 0 || n >= runs.length ? runs.length - 1 : n];
  }

  /** The chapter's lab: recorded in the student edition, else run by the bundle. */
  function labResult(chapter, p) {
    if (RECORDED && RECORDED[p.id]) return RECORDED[p.id].lab;
    return JSON.parse(vramlabLab(chapter));
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function button(label, onClick) {
    var b = el("button", "pg-button", label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function fragment() {
    var out = {};
    var h = window.location.hash.replace(/^#/, "");
    h.split("&").forEach(function (kv) {
      if (!kv) return;
      var i = kv.indexOf("=");
      var k = i < 0 ? kv : kv.substring(0, i);
      out[k] = i < 0 ? "" : decodeURIComponent(kv.substring(i + 1).replace(/\+/g, " "));
    });
    return out;
  }

  function command(policy, card) {
    var opts = policy === "pytorch+expandable" ? "--policy pytorch --alloc-conf expandable_segments:True"
        : "--policy " + policy;
    return "./vramlab replay " + opts + " --device " + card + " trace.txt";
  }

  function init(root) {
    if (root.hasAttribute("data-init")) return;   // a page with two playgrounds loads this twice
    root.setAttribute("data-init", "");
    var chapter = root.getAttribute("data-chapter");
    if (typeof vramlabPlayground !== "function") {
      root.appendChild(el("p", "pg-error", "error: the playground's script (vramlab-playground.js) did not load"));
      return;
    }
    var p = JSON.parse(vramlabPlayground(chapter));
    if (p.error) {
      root.appendChild(el("p", "pg-error", p.error));
      return;
    }
    var start = root.hasAttribute("data-standalone") ? fragment() : {};
    if (!p.trace) {
      labOnly(root, p, chapter, start);
      return;
    }
    var step = 0;

    var controls = el("div", "pg-controls");
    var trace = el("textarea", "pg-trace");
    trace.spellcheck = false;
    trace.setAttribute("wrap", "off");
    trace.rows = 18;
    trace.value = start.trace !== undefined ? start.trace : p.trace;
    trace.setAttribute("aria-label", "trace");
    var policy = el("select", "pg-policy");
    POLICIES.forEach(function (o) {
      var opt = el("option", "", o[1]);
      opt.value = o[0];
      policy.appendChild(opt);
    });
    policy.value = start.policy || p.policy;
    var card = el("input", "pg-card");
    card.value = start.card || p.card;
    card.size = 8;
    var policyLabel = el("label", "", "policy ");
    policyLabel.appendChild(policy);
    var cardLabel = el("label", "", "card ");
    cardLabel.appendChild(card);
    var status = el("span", "pg-status");
    controls.appendChild(policyLabel);
    controls.appendChild(cardLabel);
    controls.appendChild(button("Step", function () { show(step + 1); }));
    controls.appendChild(button("Run", function () { show(-1); }));
    controls.appendChild(button("Reset", function () { show(0); }));
    controls.appendChild(button("Run the lab", runLab));
    controls.appendChild(status);

    var counters = el("div", "pg-counters");
    var error = el("pre", "pg-error");
    var oom = el("pre", "pg-oom");
    var map = el("div", "pg-map");
    var cmd = el("code", "pg-command");
    var summary = el("pre", "pg-summary");
    var csv = el("pre", "pg-csv");
    var lab = el("pre", "pg-lab");

    var left = el("div", "pg-left");
    left.appendChild(el("div", "pg-caption", "Trace (alloc <handle> <size> / free <handle> / empty_cache)"));
    left.appendChild(trace);
    var right = el("div", "pg-right");
    right.appendChild(counters);
    right.appendChild(error);
    right.appendChild(oom);
    right.appendChild(map);
    var panes = el("div", "pg-panes");
    panes.appendChild(left);
    panes.appendChild(right);

    function details(title, body, open) {
      var d = el("details", "pg-details");
      if (open) d.open = true;
      d.appendChild(el("summary", "", title));
      d.appendChild(body);
      return d;
    }
    var said = el("summary", "pg-said");
    said.appendChild(el("span", "", "What "));
    said.appendChild(cmd);
    said.appendChild(el("span", "", " prints for the steps so far"));
    var saidBlock = el("details", "pg-details");
    saidBlock.open = root.hasAttribute("data-standalone");
    saidBlock.appendChild(said);
    saidBlock.appendChild(summary);
    var out = el("div", "pg-outputs");
    out.appendChild(saidBlock);
    out.appendChild(details("The same steps as --csv rows", csv, false));
    out.appendChild(details("The chapter's lab (./vramlab lab " + p.id.substring(0, 4) + ")"
        + (RECORDED ? ", recorded from the reference" : ""), lab, false));

    root.appendChild(el("div", "pg-title", p.title));
    if (RECORDED) {
      root.appendChild(el("p", "pg-recorded-note", RECORDED_NOTE + "./vramlab replay and ./vramlab lab "
          + p.id.substring(0, 4) + " print the same."));
    }
    root.appendChild(controls);
    root.appendChild(panes);
    root.appendChild(out);

    function show(n) {
      var rec = recordedReplay(p, trace.value, policy.value, card.value, n);
      var r = rec || JSON.parse(vramlabReplay(trace.value, policy.value, card.value, n));
      step = r.step;
      status.textContent = "step " + r.step + " of " + r.events + (rec ? ", recorded from the reference" : "");
      root.setAttribute("data-recorded", rec ? "true" : "false");
      error.textContent = r.error;
      error.hidden = !r.error;
      oom.textContent = r.oom;
      oom.hidden = !r.oom;
      counters.textContent = "";
      r.counters.forEach(function (c) { counters.appendChild(el("span", "pg-counter", c)); });
      map.innerHTML = r.svg;
      summary.textContent = r.summary;
      csv.textContent = r.csv.length ? r.csv.join("\n") + "\n" : "";
      cmd.textContent = command(policy.value, card.value);
      root.setAttribute("data-step", String(r.step));
    }

    function runLab() {
      var r = labResult(chapter, p);
      lab.textContent = r.error || r.output;
      lab.parentNode.open = true;
      root.setAttribute("data-lab", "done");
    }

    [trace, policy, card].forEach(function (c) { c.addEventListener("change", function () { show(0); }); });
    show(start.run !== undefined ? -1 : 0);
    if (start.lab !== undefined) runLab();
    root.setAttribute("data-ready-ms", String(Math.round(window.performance.now())));
    root.setAttribute("data-ready", "true");
  }

  /** A chapter whose mechanism is no device trace: its lab, run here by the kit's own code. */
  function labOnly(root, p, chapter, start) {
    var lab = el("pre", "pg-lab");
    var status = el("span", "pg-status", "");
    var controls = el("div", "pg-controls");
    controls.appendChild(button("Run the lab", run));
    controls.appendChild(status);
    root.appendChild(el("div", "pg-title", p.title));
    if (RECORDED) root.appendChild(el("p", "pg-recorded-note", RECORDED_LAB_NOTE + "./vramlab lab "
        + p.id.substring(0, 4) + " prints the same."));
    root.appendChild(el("div", "pg-said", "What ./vramlab lab " + chapter.substring(0, 4)
        + (RECORDED ? " prints, recorded from the reference when this site was built:"
            : " prints, computed on this page by the chapter's own Java code:")));
    root.appendChild(controls);
    root.appendChild(lab);
    function run() {
      var t0 = window.performance.now();
      var r = labResult(chapter, p);
      lab.textContent = r.error || r.output;
      status.textContent = RECORDED ? "recorded from the reference"
          : "ran in " + Math.round(window.performance.now() - t0) + " ms";
      root.setAttribute("data-lab", "done");
    }
    if (start.lab !== undefined) run();
    root.setAttribute("data-ready-ms", String(Math.round(window.performance.now())));
    root.setAttribute("data-ready", "true");
  }

  /** Bytes as one character per byte, the form vramlabSnapshot reads. */
  function latin1(bytes) {
    var parts = [];
    for (var i = 0; i < bytes.length; i += 8192) {
      parts.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 8192)));
    }
    return parts.join("");
  }

  /**
   * The most a snapshot may hold, unzipped: 1 GiB, the most ./vramlab reads from one file even
   * with --max-input (SnapshotInput.MAX_INPUT; PlaygroundLimitsTest holds the two equal). The
   * launcher's default is lower (256 MiB, SnapshotInput.DEFAULT_LIMIT) so that a gzip bomb is
   * refused quickly; the page has no option to raise, so it takes the ceiling.
   */
  var MAX_INPUT = 1073741824;

  function tooLarge(what) {
    return new Error(what + " more than 1 GiB (" + MAX_INPUT + " bytes), the most the kit reads from one file");
  }

  /**
   * The file's bytes, unzipped by the browser itself when they start with gzip's magic bytes: read
   * chunk by chunk and given up, the stream cancelled, as soon as it passes MAX_INPUT, so a small
   * file that unzips without end (a gzip bomb) never fills the page's memory.
   */
  function unzipped(bytes) {
    if (bytes.length > MAX_INPUT) return Promise.reject(tooLarge("the file is"));
    if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return Promise.resolve(bytes);
    if (typeof DecompressionStream !== "function") {
      return Promise.reject(new Error("this browser cannot unzip .gz files: unzip it first"));
    }
    var reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
    var chunks = [];
    var total = 0;
    function next() {
      return reader.read().then(function (r) {
        if (r.done) {
          var out = new Uint8Array(total);
          var at = 0;
          chunks.forEach(function (c) { out.set(c, at); at += c.length; });
          return out;
        }
        total += r.value.length;
        if (total > MAX_INPUT) {
          reader.cancel();
          throw tooLarge("it unzips to");
        }
        chunks.push(r.value);
        return next();
      });
    }
    return next();
  }

  /** The paste-a-snapshot page: a file replayed under another policy, all on this machine. */
  function initSnapshot(root) {
    if (root.hasAttribute("data-init")) return;
    root.setAttribute("data-init", "");
    var input = el("input", "pg-file");
    input.type = "file";
    var policy = el("select", "pg-policy");
    [["", "the settings that recorded it"]].concat(POLICIES).forEach(function (o) {
      var opt = el("option", "", o[1]);
      opt.value = o[0];
      policy.appendChild(opt);
    });
    var card = el("input", "pg-card");
    card.placeholder = "from the snapshot";
    card.size = 14;
    var out = el("pre", "pg-snapshot-output");
    var status = el("span", "pg-status", "");
    var controls = el("div", "pg-controls");
    var policyLabel = el("label", "", "policy ");
    policyLabel.appendChild(policy);
    var cardLabel = el("label", "", "card ");
    cardLabel.appendChild(card);
    controls.appendChild(input);
    controls.appendChild(policyLabel);
    controls.appendChild(cardLabel);
    controls.appendChild(status);
    root.appendChild(el("div", "pg-title", "Replay a PyTorch memory snapshot under another policy"));
    root.appendChild(el("p", "", "Choose or drop a file from torch.cuda.memory._dump_snapshot (a pickle, "
        + "gzipped or not). It is read and replayed on this page by the kit's Java, compiled to "
        + "JavaScript: the file never leaves this machine. The output is what ./vramlab replay prints "
        + "for it, the peak reserved recorded beside replayed."));
    root.appendChild(controls);
    root.appendChild(out);
    var last = null;

    function replay(bytes, name) {
      last = {bytes: bytes, name: name};
      status.textContent = "replaying " + name + " ...";
      return unzipped(bytes).then(function (raw) {
        var t0 = window.performance.now();
        var r = JSON.parse(vramlabSnapshot(latin1(raw), name, policy.value, card.value.trim()));
        out.textContent = r.output;
        status.textContent = name + ": replayed in " + Math.round(window.performance.now() - t0) + " ms";
        root.setAttribute("data-replayed", name);
      }, function (e) {
        out.textContent = "error: " + name + ": " + e.message + "\n";
        root.setAttribute("data-replayed", name);
      });
    }
    function read(file) {
      var reader = new FileReader();
      reader.onload = function () { replay(new Uint8Array(reader.result), file.name); };
      reader.readAsArrayBuffer(file);
    }
    input.addEventListener("change", function () { if (input.files.length) read(input.files[0]); });
    root.addEventListener("dragover", function (e) { e.preventDefault(); });
    root.addEventListener("drop", function (e) {
      e.preventDefault();
      if (e.dataTransfer.files.length) read(e.dataTransfer.files[0]);
    });
    [policy, card].forEach(function (c) {
      c.addEventListener("change", function () { if (last) replay(last.bytes, last.name); });
    });
    root.vramlabReplayBytes = replay;   // what a test page calls with bytes it holds
    root.setAttribute("data-ready", "true");
  }

  function all() {
    var snapshots = document.querySelectorAll(".vramlab-snapshot");
    for (var j = 0; j < snapshots.length; j++) initSnapshot(snapshots[j]);
    var roots = document.querySelectorAll(".vramlab-playground");
    for (var i = 0; i < roots.length; i++) {
      try {
        init(roots[i]);
      } catch (e) {
        roots[i].appendChild(el("p", "pg-error", "error: the playground failed: " + e));
      }
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", all);
  else all();
})();
