/// The console's core script: sign-in, the session's CSRF token, calls to the admin APIs and the
/// views. Everything from the server is put in the page with `textContent`, never as HTML.
enum ConsoleScript {
    /// A view's script: `body` runs in strict mode inside its own function scope, with the core
    /// script's `Courier` object as `C` and its element lookup as `$`.
    static func view(_ body: String) -> String {
        #"""
        "use strict";
        (() => {
          const C = window.Courier;
          const $ = C.$;

        """# + body + "\n})();"
    }

    static let app = #"""
        "use strict";
        const Courier = (window.Courier = { csrfToken: null, views: {} });

        Courier.$ = (id) => document.getElementById(id);

        Courier.element = (tag, text, attributes) => {
          const node = document.createElement(tag);
          if (text !== undefined && text !== null) node.textContent = String(text);
          for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
          return node;
        };

        Courier.clear = (node) => { while (node.firstChild) node.removeChild(node.firstChild); };

        // The page-level notice, for what no one control caused (a view that failed to load).
        Courier.notice = (text) => { Courier.$("notice").textContent = text || ""; };

        // A notice beside the control that caused it: an element marked `data-notice` next to the
        // button. Navigating and signing out clear them all, with the page-level one.
        Courier.say = (id, text) => { Courier.$(id).textContent = text || ""; };
        Courier.clearNotices = () => {
          Courier.notice("");
          for (const node of document.querySelectorAll("[data-notice]")) node.textContent = "";
        };

        // The members that differ between two JSON values, as paths (`rules[0].rollout.percentage`)
        // with the value before and after (`undefined` where the member is absent).
        Courier.diff = (before, after, path = "", out = []) => {
          const object = (value) => value !== null && typeof value === "object";
          if (object(before) && object(after) && Array.isArray(before) === Array.isArray(after)) {
            const keys = Array.isArray(before)
              ? Array.from({ length: Math.max(before.length, after.length) }, (_, i) => i)
              : Array.from(new Set(Object.keys(before).concat(Object.keys(after)))).sort();
            for (const key of keys) {
              const next = Array.isArray(before) ? path + "[" + key + "]" : (path ? path + "." : "") + key;
              Courier.diff(before[key], after[key], next, out);
            }
          } else if (JSON.stringify(before) !== JSON.stringify(after)) {
            out.push({ path: path || "(whole)", before, after });
          }
          return out;
        };

        // Calls an admin API with the session cookie; state-changing calls carry the CSRF token.
        // `extra` adds headers (an edit's If-Match).
        Courier.api = async (method, path, body, extra) => {
          const headers = Object.assign({}, extra || {});
          if (method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = Courier.csrfToken || "";
          if (body !== undefined) headers["Content-Type"] = "application/json";
          const response = await fetch(path, {
            method, headers, credentials: "same-origin", cache: "no-store",
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          let json = null;
          try { json = await response.json(); } catch (_) { json = null; }
          if (response.status === 401 && path !== "/console/api/session") { Courier.showSignIn(); }
          if (!response.ok) {
            const message = (json && json.error && json.error.message) || ("HTTP " + response.status);
            const error = new Error(message);
            error.status = response.status;
            throw error;
          }
          return json;
        };

        // A bar chart of counts in SVG built with DOM calls: a y axis labelled 0, half and the
        // maximum, an x axis labelled with the UTC times of the first, middle and last buckets,
        // and a readout of one bucket's time and count while the pointer is over it (each bucket
        // also has an SVG <title>, the browser's tooltip). The chart takes focus, and the arrow
        // keys, Home and End read the buckets into the same readout (announced politely); Escape
        // or leaving puts the maximum back. `start` is the first bucket's time in milliseconds
        // since 1970, `step` a bucket's length.
        Courier.chart = (counts, { label, unit, start, step }) => {
          const ns = "http://www.w3.org/2000/svg";
          const svgNode = (tag, attributes, text) => {
            const node = document.createElementNS(ns, tag);
            for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
            if (text !== undefined) node.textContent = String(text);
            return node;
          };
          const width = 320, height = 120, left = 34, right = 8, top = 8, bottom = 22;
          const plotWidth = width - left - right, plotHeight = height - top - bottom;
          const max = Math.max(0, ...counts), scale = Math.max(1, max);
          const y = (value) => (top + plotHeight - (value / scale) * plotHeight).toFixed(2);
          const time = (index) => new Date(start + index * step).toISOString().slice(11, 16);
          const box = Courier.element("figure", null, {
            class: "chart", tabindex: "0", "aria-label": label + " (arrow keys read each bucket)",
          });
          const svg = svgNode("svg", {
            class: "chart-svg", viewBox: "0 0 " + width + " " + height, role: "img",
            "aria-label": label + ", at most " + max + " " + unit + ", from " + time(0) + " to " + time(counts.length - 1) + " UTC",
          });
          const mid = Math.round((max / 2) * 10) / 10;
          for (const [value, tick] of [[0, "y-zero"], [mid, "y-mid"], [max, "y-max"]]) {
            svg.appendChild(svgNode("line", { class: "grid", x1: left, x2: left + plotWidth, y1: y(value), y2: y(value) }));
            svg.appendChild(svgNode("text", { class: "y-label " + tick, x: left - 4, y: Number(y(value)) + 3, "text-anchor": "end" }, value));
          }
          svg.appendChild(svgNode("line", { class: "axis", x1: left, x2: left, y1: top, y2: top + plotHeight }));
          svg.appendChild(svgNode("line", { class: "axis", x1: left, x2: left + plotWidth, y1: top + plotHeight, y2: top + plotHeight }));
          const band = plotWidth / Math.max(1, counts.length);
          const last = counts.length - 1, middle = Math.floor(last / 2);
          for (const [index, anchor] of [[0, "start"], [middle, "middle"], [last, "end"]]) {
            const x = anchor === "start" ? left : anchor === "end" ? left + plotWidth : left + (index + 0.5) * band;
            svg.appendChild(svgNode("text", { class: "x-label", x, y: height - 6, "text-anchor": anchor }, time(index)));
          }
          const readout = Courier.element("figcaption", null, { class: "chart-readout", "aria-live": "polite" });
          const resting = "max " + max + " " + unit;
          readout.textContent = resting;
          const hits = [], texts = [];
          let current = -1;
          const show = (index) => {
            if (current >= 0) hits[current].classList.remove("current");
            current = index;
            if (index >= 0) hits[index].classList.add("current");
            readout.textContent = index >= 0 ? texts[index] : resting;
          };
          counts.forEach((count, index) => {
            const x = left + index * band;
            const text = time(index) + " UTC: " + count + (count === 1 ? " event" : " events");
            if (count > 0) {
              svg.appendChild(svgNode("rect", {
                class: "bar", x: (x + band * 0.1).toFixed(2), width: (band * 0.8).toFixed(2), y: y(count),
                height: (top + plotHeight - Number(y(count))).toFixed(2),
              }));
            }
            const hit = svgNode("rect", { class: "hit", x: x.toFixed(2), y: top, width: band.toFixed(2), height: plotHeight, "data-count": count });
            hit.appendChild(svgNode("title", {}, text));
            hit.addEventListener("mouseenter", () => show(index));
            hit.addEventListener("mouseleave", () => show(-1));
            hits.push(hit);
            texts.push(text);
            svg.appendChild(hit);
          });
          box.addEventListener("keydown", (event) => {
            const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
            let next = null;
            if (step !== undefined) next = current < 0 ? (step > 0 ? 0 : last) : Math.min(last, Math.max(0, current + step));
            else if (event.key === "Home") next = 0;
            else if (event.key === "End") next = last;
            else if (event.key === "Escape") next = -1;
            if (next === null) return;
            event.preventDefault();
            show(next);
          });
          box.addEventListener("blur", () => show(-1));
          box.appendChild(svg);
          box.appendChild(readout);
          return box;
        };

        // "3 s ago" for an ISO time, against the browser's clock; a time ahead of it is "just now".
        Courier.ago = (iso, now) => {
          const at = Date.parse(iso);
          if (Number.isNaN(at)) return "";
          const seconds = Math.floor((now - at) / 1000);
          if (seconds < 1) return "just now";
          if (seconds < 60) return seconds + " s ago";
          if (seconds < 3600) return Math.floor(seconds / 60) + " min ago";
          if (seconds < 86400) return Math.floor(seconds / 3600) + " h ago";
          return Math.floor(seconds / 86400) + " d ago";
        };

        Courier.showOnly = (id) => {
          for (const view of ["sign-in-view", "sources-view", "source-view", "flags-view", "messenger-view"]) {
            Courier.$(view).hidden = view !== id;
          }
        };

        Courier.showSignIn = () => {
          Courier.csrfToken = null;
          Courier.clearNotices();
          Courier.$("nav").hidden = true;
          for (const view of Object.values(Courier.views)) if (view.leave) view.leave();
          Courier.showOnly("sign-in-view");
          Courier.$("token").focus();
        };

        // A notice speaks of the view it came from: navigating or signing out clears it.
        Courier.route = () => {
          Courier.clearNotices();
          if (!Courier.csrfToken) return Courier.showSignIn();
          Courier.$("nav").hidden = false;
          const hash = decodeURIComponent(location.hash.slice(1));
          for (const view of Object.values(Courier.views)) if (view.leave) view.leave();
          if (hash.startsWith("source/")) return Courier.views.source.enter(hash.slice("source/".length));
          if (hash === "flags") return Courier.views.flags.enter();
          if (hash === "messenger") return Courier.views.messenger.enter();
          return Courier.views.sources.enter();
        };

        document.addEventListener("DOMContentLoaded", async () => {
          Courier.$("sign-in-form").addEventListener("submit", async (event) => {
            event.preventDefault();
            Courier.$("sign-in-error").textContent = "";
            try {
              const session = await Courier.api("POST", "/console/api/session", { token: Courier.$("token").value });
              Courier.$("token").value = "";
              Courier.csrfToken = session.csrfToken;
              Courier.route();
            } catch (error) {
              Courier.$("sign-in-error").textContent = error.message;
            }
          });
          Courier.$("sign-out").addEventListener("click", async () => {
            try { await Courier.api("DELETE", "/console/api/session"); } catch (_) { /* signed out anyway */ }
            Courier.showSignIn();
          });
          window.addEventListener("hashchange", Courier.route);
          try {
            const session = await Courier.api("GET", "/console/api/session");
            Courier.csrfToken = session.csrfToken;
          } catch (_) {
            Courier.csrfToken = null;
          }
          Courier.route();
        });
        """#
}
