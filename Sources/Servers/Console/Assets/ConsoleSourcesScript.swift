/// The sources views: the write-key list with sparklines, and one source's live debugger, volume,
/// rejections and settings.
enum ConsoleSourcesScript {
    static let sources = ConsoleScript.view(
        #"""
          const keep = 500;
          let refresh = null;

          C.views.sources = {
            async enter() {
              C.showOnly("sources-view");
              try {
                const answer = await C.api("GET", "/v1/projects");
                const body = document.querySelector("#sources-table tbody");
                C.clear(body);
                for (const project of answer.projects) {
                  const row = document.createElement("tr");
                  const name = document.createElement("td");
                  name.appendChild(C.element("a", project.writeKey, { href: "#source/" + encodeURIComponent(project.writeKey) }));
                  row.appendChild(name);
                  row.appendChild(C.element("td", project.settings.enabled ? "yes" : "no (kill switch on)"));
                  const spark = document.createElement("td");
                  spark.appendChild(C.sparkline(project.perMinute, "events per minute over the last hour"));
                  row.appendChild(spark);
                  row.appendChild(C.element("td", project.perMinute[project.perMinute.length - 1]));
                  body.appendChild(row);
                }
              } catch (error) { C.notice(error.message); }
            },
          };

          const source = {
            key: null, stream: null, events: [], paused: false, missed: 0, selected: null,

            enter(key) {
              this.key = key;
              this.events = []; this.missed = 0; this.selected = null; this.paused = false;
              $("pause").textContent = "Pause"; $("pause").setAttribute("aria-pressed", "false");
              $("event-json").textContent = "Choose an event to see it as stored.";
              $("source-heading").textContent = "Source " + key;
              C.showOnly("source-view");
              this.render();
              this.open();
              this.loadPanels();
              refresh = setInterval(() => this.loadPanels(false), 10000);
            },

            leave() {
              if (this.stream) { this.stream.close(); this.stream = null; }
              if (refresh) { clearInterval(refresh); refresh = null; }
            },

            open() {
              const url = "/v1/events/stream?writeKey=" + encodeURIComponent(this.key);
              const stream = new EventSource(url);
              this.stream = stream;
              stream.onopen = () => { $("stream-status").textContent = "Live: waiting for events."; };
              stream.onerror = () => { $("stream-status").textContent = "Reconnecting to the live stream…"; };
              stream.onmessage = (message) => {
                let item;
                try { item = JSON.parse(message.data); } catch (_) { return; }
                this.events.unshift(item);
                if (this.events.length > keep) this.events.length = keep;
                if (this.paused) { this.missed += 1; this.status(); return; }
                this.render();
              };
              stream.addEventListener("skipped", () => {
                $("stream-status").textContent = "Events arrive faster than the page can show: some were skipped (sampled).";
              });
            },

            status() {
              const shown = "Showing " + this.visible().length + " of the last " + this.events.length + " events.";
              $("stream-status").textContent = this.paused ? "Paused; " + this.missed + " new events held back. " + shown : shown;
            },

            visible() {
              const type = $("filter-type").value;
              const name = $("filter-name").value.trim().toLowerCase();
              return this.events.filter((item) => {
                const event = item.event || {};
                if (type && event.type !== type) return false;
                if (name && !String(event.event || "").toLowerCase().includes(name)) return false;
                return true;
              });
            },

            render() {
              const list = $("event-list");
              C.clear(list);
              for (const item of this.visible().slice(0, 200)) {
                const event = item.event || {};
                const label = [event.type, event.event || event.name || "", event.receivedAt || ""].filter(Boolean).join(" · ");
                const button = C.element("button", label, { type: "button", "data-event-id": String(item.id) });
                if (this.selected === item.id) button.setAttribute("aria-current", "true");
                button.addEventListener("click", () => this.show(item));
                const entry = document.createElement("li");
                entry.appendChild(button);
                list.appendChild(entry);
              }
              this.status();
            },

            show(item) {
              this.selected = item.id;
              $("event-json").textContent = JSON.stringify(item.event, null, 2);
              for (const button of $("event-list").querySelectorAll("button")) {
                button.setAttribute("aria-current", button.dataset.eventId === String(item.id) ? "true" : "false");
              }
            },

            async loadPanels(withSettings = true) {
              const base = "/v1/projects/" + encodeURIComponent(this.key);
              try {
                const [volume, rejections, history] = await Promise.all([
                  C.api("GET", base + "/volume"), C.api("GET", base + "/rejections"), C.api("GET", base + "/settings/history"),
                ]);
                this.renderVolume(volume); this.renderRejections(rejections); this.renderHistory(history);
                if (withSettings) this.fillSettings(await C.api("GET", base + "/settings"));
              } catch (error) { C.notice(error.message); }
            },

            renderVolume(volume) {
              const body = document.querySelector("#volume-table tbody");
              C.clear(body);
              for (const type of Object.keys(volume.perMinute).sort()) {
                const minutes = volume.perMinute[type], hours = volume.perHour[type] || [];
                const row = document.createElement("tr");
                row.appendChild(C.element("th", type, { scope: "row" }));
                const m = document.createElement("td"); m.appendChild(C.sparkline(minutes, type + " per minute")); row.appendChild(m);
                row.appendChild(C.element("td", minutes.reduce((a, b) => a + b, 0)));
                const h = document.createElement("td"); h.appendChild(C.sparkline(hours, type + " per hour")); row.appendChild(h);
                row.appendChild(C.element("td", hours.reduce((a, b) => a + b, 0)));
                body.appendChild(row);
              }
            },

            renderRejections(rejections) {
              const counts = $("rejection-counts"), recent = $("rejection-recent");
              C.clear(counts); C.clear(recent);
              const codes = Object.keys(rejections.counts).sort();
              if (codes.length === 0) counts.appendChild(C.element("li", "No rejections."));
              for (const code of codes) counts.appendChild(C.element("li", code + ": " + rejections.counts[code], { "data-code": code }));
              for (const entry of rejections.recent) {
                recent.appendChild(C.element("li", entry.at + " " + entry.code + " ×" + entry.count + ": " + entry.message));
              }
            },

            renderHistory(history) {
              const list = $("settings-history");
              C.clear(list);
              for (const entry of history.entries) {
                const changed = Object.keys(entry.after).filter((k) => JSON.stringify(entry.after[k]) !== JSON.stringify(entry.before[k]));
                const text = changed.map((k) => k + ": " + JSON.stringify(entry.before[k]) + " → " + JSON.stringify(entry.after[k])).join(", ");
                list.appendChild(C.element("li", entry.at + " " + (text || "no change")));
              }
            },

            fillSettings(settings) {
              $("setting-enabled").checked = settings.enabled;
              $("setting-sample-rate").value = settings.sampleRate;
              $("setting-flush-at").value = settings.flushAt;
              $("setting-flush-interval").value = settings.flushIntervalSeconds;
              $("setting-allow-list").value = (settings.propertyAllowList || []).join(", ");
            },

            async saveSettings() {
              const list = $("setting-allow-list").value.split(",").map((s) => s.trim()).filter(Boolean);
              const patch = {
                enabled: $("setting-enabled").checked,
                sampleRate: Number($("setting-sample-rate").value),
                flushAt: Number($("setting-flush-at").value),
                flushIntervalSeconds: Number($("setting-flush-interval").value),
                propertyAllowList: list.length ? list : null,
              };
              try {
                const saved = await C.api("PUT", "/v1/projects/" + encodeURIComponent(this.key) + "/settings", patch);
                this.fillSettings(saved);
                $("settings-message").textContent = "";
                $("notice").textContent = "Settings saved: " + (saved.enabled ? "collecting." : "kill switch on.");
                this.loadPanels(false);
              } catch (error) { $("settings-message").textContent = error.message; }
            },
          };
          C.views.source = source;

          document.addEventListener("DOMContentLoaded", () => {
            $("pause").addEventListener("click", () => {
              source.paused = !source.paused;
              $("pause").textContent = source.paused ? "Resume" : "Pause";
              $("pause").setAttribute("aria-pressed", String(source.paused));
              if (!source.paused) { source.missed = 0; source.render(); } else source.status();
            });
            $("filter-type").addEventListener("change", () => source.render());
            $("filter-name").addEventListener("input", () => source.render());
            $("settings-form").addEventListener("submit", (event) => { event.preventDefault(); source.saveSettings(); });
          });
        """#)
}
