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

        Courier.notice = (text) => { Courier.$("notice").textContent = text || ""; };

        // Calls an admin API with the session cookie; state-changing calls carry the CSRF token.
        Courier.api = async (method, path, body) => {
          const headers = {};
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

        // A sparkline of counts as an SVG polyline built with DOM calls, with its scale written beside
        // it ("max 12 per minute"), so 2 events do not look like 12; the label is its text twin.
        Courier.sparkline = (counts, label, unit) => {
          const ns = "http://www.w3.org/2000/svg";
          const top = Math.max(0, ...counts);
          const box = Courier.element("span", null, { class: "spark-box" });
          const svg = document.createElementNS(ns, "svg");
          svg.setAttribute("class", "spark");
          svg.setAttribute("viewBox", "0 0 " + Math.max(counts.length - 1, 1) + " 20");
          svg.setAttribute("preserveAspectRatio", "none");
          svg.setAttribute("role", "img");
          svg.setAttribute("aria-label", label + ", at most " + top + " " + unit);
          const line = document.createElementNS(ns, "polyline");
          line.setAttribute("points", counts.map((n, i) => i + "," + (19 - (n / Math.max(1, top)) * 18).toFixed(2)).join(" "));
          svg.appendChild(line);
          box.appendChild(svg);
          box.appendChild(Courier.element("span", "max " + top + " " + unit, { class: "spark-max", "aria-hidden": "true" }));
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
          Courier.notice("");
          Courier.$("nav").hidden = true;
          for (const view of Object.values(Courier.views)) if (view.leave) view.leave();
          Courier.showOnly("sign-in-view");
          Courier.$("token").focus();
        };

        // A notice speaks of the view it came from: navigating or signing out clears it.
        Courier.route = () => {
          Courier.notice("");
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
