/// The sources views: the write-key list with per-minute charts, and one source's live debugger, volume,
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
                  if (project.perMinute.some((n) => n > 0)) {
                    spark.appendChild(C.chart(project.perMinute, {
                      label: "events per minute over the last hour", unit: "per minute", start: project.firstMinute, step: 60000,
                    }));
                  } else {
                    spark.appendChild(C.element("span", "No events in the last hour", { class: "empty" }));
                  }
                  row.appendChild(spark);
                  row.appendChild(C.element("td", project.perMinute[project.perMinute.length - 1]));
                  body.appendChild(row);
                }
              } catch (error) { C.notice(error.message); }
            },
          };

          const source = {
            key: null, stream: null, events: [], paused: false, missed: 0, selected: null, newest: 0, live: false,
            clock: null,

            enter(key) {
              this.key = key;
              this.events = []; this.missed = 0; this.selected = null; this.paused = false; this.newest = 0;
              this.shownVolume = null;
              $("pause").textContent = "Pause"; $("pause").setAttribute("aria-pressed", "false");
              $("event-json").textContent = "Choose an event to see it as stored.";
              $("source-heading").textContent = "Source " + key;
              C.showOnly("source-view");
              this.render();
              this.open();
              this.loadPanels();
              refresh = setInterval(() => this.loadPanels(false), 10000);
              this.clock = setInterval(() => this.tick(), 1000);
            },

            leave() {
              if (this.stream) { this.stream.close(); this.stream = null; }
              if (refresh) { clearInterval(refresh); refresh = null; }
              if (this.clock) { clearInterval(this.clock); this.clock = null; }
            },

            open() {
              const url = "/v1/events/stream?writeKey=" + encodeURIComponent(this.key);
              const stream = new EventSource(url);
              this.stream = stream;
              stream.onopen = () => { this.live = true; this.status(); };
              stream.onerror = () => { this.live = false; $("stream-status").textContent = "Reconnecting to the live stream…"; };
              // The stream opens with the newest stored events, then live ones. The browser reconnects
              // by itself with Last-Event-ID, and the server resumes after that id with every event
              // stored meanwhile; an id already shown is skipped all the same.
              stream.onmessage = (message) => {
                let item;
                try { item = JSON.parse(message.data); } catch (_) { return; }
                if (typeof item.id !== "number" || item.id <= this.newest) return;
                this.newest = item.id;
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
              if (this.events.length === 0) {
                $("stream-status").textContent = this.live ? "Live: no events stored for this source yet; waiting for new ones." : "";
                return;
              }
              const shown = "Showing " + this.visible().length + " of the last " + this.events.length + " events.";
              const state = this.paused ? "Paused; " + this.missed + " new events held back. " : this.live ? "Live. " : "";
              $("stream-status").textContent = state + shown;
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
                const button = this.row(item);
                if (this.selected === item.id) button.setAttribute("aria-current", "true");
                button.addEventListener("click", () => this.show(item));
                const entry = document.createElement("li");
                entry.appendChild(button);
                list.appendChild(entry);
              }
              this.status();
            },

            // One debugger row: what happened, who did it, a few properties, and when.
            row(item) {
              const event = item.event || {};
              const button = C.element("button", null, { type: "button", "data-event-id": String(item.id) });
              button.appendChild(C.element("span", [event.type, event.event || event.name || ""].filter(Boolean).join(" "), { class: "row-name" }));
              const who = event.userId ? "user " + event.userId : event.anonymousId ? "anonymous " + event.anonymousId : "no user";
              button.appendChild(C.element("span", who, { class: "row-user" }));
              const preview = this.preview(event.properties || event.traits || {});
              if (preview) button.appendChild(C.element("span", preview, { class: "row-props" }));
              const time = C.element("time", C.ago(event.receivedAt, Date.now()), { class: "row-time" });
              if (event.receivedAt) time.setAttribute("datetime", String(event.receivedAt));
              button.appendChild(time);
              return button;
            },

            // The first three properties as `name=value`, values cut to 24 characters.
            preview(properties) {
              if (typeof properties !== "object" || properties === null) return "";
              return Object.keys(properties).slice(0, 3).map((name) => {
                const value = properties[name];
                const text = typeof value === "string" ? value : JSON.stringify(value);
                return name + "=" + (text.length > 24 ? text.slice(0, 23) + "…" : text);
              }).join(", ");
            },

            // Refreshes the rows' relative times in place, so focus and selection stay where they are.
            tick() {
              const now = Date.now();
              for (const time of $("event-list").querySelectorAll("time[datetime]")) {
                time.textContent = C.ago(time.getAttribute("datetime"), now);
              }
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
              // The same counts as at the last refresh (every 10 s): the charts stay as they are,
              // so one being read by pointer or keyboard keeps its focus and readout.
              const shown = JSON.stringify(volume);
              if (shown === this.shownVolume && body.childElementCount > 0) return;
              this.shownVolume = shown;
              C.clear(body);
              const sum = (counts) => (counts || []).reduce((a, b) => a + b, 0);
              const types = Object.keys(volume.perHour).concat(Object.keys(volume.perMinute))
                .filter((type, index, all) => all.indexOf(type) === index && sum(volume.perHour[type]) + sum(volume.perMinute[type]) > 0)
                .sort();
              $("volume-empty").textContent = types.length ? "" : this.noVolume();
              $("volume-table").hidden = types.length === 0;
              for (const type of types) {
                const minutes = volume.perMinute[type] || [], hours = volume.perHour[type] || [];
                const row = document.createElement("tr");
                row.appendChild(C.element("th", type, { scope: "row" }));
                const perMinute = { label: type + " events per minute", unit: "per minute", start: volume.firstMinute, step: 60000 };
                const perHour = { label: type + " events per hour", unit: "per hour", start: volume.firstHour, step: 3600000 };
                row.appendChild(this.chartCell(minutes, perMinute, "No " + type + " events in the last hour"));
                row.appendChild(C.element("td", sum(minutes)));
                row.appendChild(this.chartCell(hours, perHour, "No " + type + " events in the last day"));
                row.appendChild(C.element("td", sum(hours)));
                body.appendChild(row);
              }
            },

            // What an empty volume panel means: no events, or (when the debugger shows one from the
            // last day) counts that started again with the server.
            noVolume() {
              const text = "No events in the last day for this source.";
              const newest = this.events.length ? Date.parse((this.events[0].event || {}).receivedAt) : NaN;
              if (Number.isNaN(newest) || Date.now() - newest > 86400000) return text;
              return "No events counted in the last day for this source, though one was stored " +
                C.ago(this.events[0].event.receivedAt, Date.now()) + ": counts start again when the server restarts.";
            },

            chartCell(counts, options, empty) {
              const cell = document.createElement("td");
              if (counts.some((n) => n > 0)) cell.appendChild(C.chart(counts, options));
              else cell.appendChild(C.element("span", empty, { class: "empty" }));
              return cell;
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
              if (history.entries.length === 0) list.appendChild(C.element("li", "No settings changes yet."));
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
                C.say("settings-status", "Settings saved: " + (saved.enabled ? "collecting." : "kill switch on."));
                this.loadPanels(false);
              } catch (error) { C.say("settings-status", ""); $("settings-message").textContent = error.message; }
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
