/*
 * The playground's page: it draws the controls and shows what the kit's Java says. Every
 * number, map and message comes from vramlab-playground.js (the kit's cores compiled by TeaVM):
 * vramlabPlayground(chapter), vramlabReplay(trace, policy, card, steps), vramlabLab(chapter),
 * each returning JSON. This script holds no rule of any allocator.
 *
 * A standalone page reads its starting state from the address's fragment:
 *   #trace=<text>&policy=toy|pytorch|pytorch+expandable&card=40MiB&run&lab
 * (run: replay to the end at once; lab: run the chapter's lab at once).
 */
(function () {
  "use strict";

  var POLICIES = [
    ["toy", "toy (the simplified policy chapter 3 starts from)"],
    ["pytorch", "pytorch (CUDACachingAllocator defaults)"],
    ["pytorch+expandable", "pytorch + expandable segments"]
  ];

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
    out.appendChild(details("The chapter's lab (./vramlab lab " + p.id.substring(0, 4) + ")", lab, false));

    root.appendChild(el("div", "pg-title", p.title));
    root.appendChild(controls);
    root.appendChild(panes);
    root.appendChild(out);

    function show(n) {
      var r = JSON.parse(vramlabReplay(trace.value, policy.value, card.value, n));
      step = r.step;
      status.textContent = "step " + r.step + " of " + r.events;
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
      var r = JSON.parse(vramlabLab(chapter));
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
    root.appendChild(el("div", "pg-said", "What ./vramlab lab " + chapter.substring(0, 4)
        + " prints, computed on this page by the chapter's own Java code:"));
    root.appendChild(controls);
    root.appendChild(lab);
    function run() {
      var t0 = window.performance.now();
      var r = JSON.parse(vramlabLab(chapter));
      lab.textContent = r.error || r.output;
      status.textContent = "ran in " + Math.round(window.performance.now() - t0) + " ms";
      root.setAttribute("data-lab", "done");
    }
    if (start.lab !== undefined) run();
    root.setAttribute("data-ready-ms", String(Math.round(window.performance.now())));
    root.setAttribute("data-ready", "true");
  }

  function all() {
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
