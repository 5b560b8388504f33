/// The flags view: the list with owner, expiry and state, the rule and rollout editor (the
/// server's validation messages shown as they come), kill, the evaluation preview and the audit.
enum ConsoleFlagsScript {
    static let flags = ConsoleScript.view(
        #"""

          const flags = {
            environment: "development", list: [], editing: null,

            enter() {
              C.showOnly("flags-view");
              this.environment = $("flags-environment").value.trim() || "development";
              this.load();
            },

            base() { return "/v1/flags/" + encodeURIComponent(this.environment); },

            async load() {
              $("flags-message").textContent = "";
              const body = document.querySelector("#flags-table tbody");
              C.clear(body);
              try {
                const answer = await C.api("GET", this.base() + "/definitions");
                this.list = answer.flags;
              } catch (error) {
                this.list = [];
                $("flags-message").textContent = error.message;
              }
              const today = new Date().toISOString().slice(0, 10);
              const select = $("preview-flag");
              const chosen = select.value;
              C.clear(select);
              for (const flag of this.list) {
                const row = document.createElement("tr");
                row.appendChild(C.element("th", flag.key, { scope: "row" }));
                row.appendChild(C.element("td", flag.owner || "—"));
                const expires = C.element("td", flag.expires || "—");
                if (flag.expires && flag.expires < today) {
                  expires.textContent = flag.expires + " (overdue)";
                  expires.className = "overdue";
                }
                row.appendChild(expires);
                const state = C.element("td", flag.enabled === false ? "killed" : "on");
                if (flag.enabled === false) state.className = "killed";
                row.appendChild(state);
                const actions = document.createElement("td");
                const edit = C.element("button", "Edit", { type: "button", "aria-label": "Edit " + flag.key });
                edit.addEventListener("click", () => this.edit(flag.key));
                actions.appendChild(edit);
                row.appendChild(actions);
                body.appendChild(row);
                select.appendChild(C.element("option", flag.key, { value: flag.key }));
              }
              if (chosen && this.list.some((f) => f.key === chosen)) select.value = chosen;
              this.loadAudit();
            },

            async loadAudit() {
              const list = $("flags-audit");
              C.clear(list);
              try {
                const answer = await C.api("GET", this.base() + "/audit?limit=20");
                for (const entry of answer.entries) {
                  list.appendChild(C.element("li", entry.at + " " + entry.action + " " + entry.subject + " " + entry.key + " (version " + entry.version + ")"));
                }
              } catch (_) { /* no audit for an empty environment */ }
            },

            edit(key) {
              const flag = this.list.find((f) => f.key === key);
              if (!flag) return;
              this.editing = key;
              $("flag-editor").hidden = false;
              $("flag-editor-heading").textContent = "Edit flag " + key;
              $("flag-definition").value = JSON.stringify(flag, null, 2);
              $("flag-editor-message").textContent = "";
              const rollouts = $("flag-rollouts");
              C.clear(rollouts);
              (flag.rules || []).forEach((rule, index) => {
                if (!rule.rollout) return;
                const id = "rollout-" + index;
                const field = C.element("div", null, { class: "field" });
                field.appendChild(C.element("label", "Rollout % of rule " + (rule.id || index), { for: id }));
                const input = C.element("input", null, { id, type: "number", step: "any", "data-rule": String(index) });
                input.value = rule.rollout.percentage;
                field.appendChild(input);
                rollouts.appendChild(field);
              });
              $("preview-flag").value = key;
              $("flag-definition").focus();
            },

            definition() {
              const definition = JSON.parse($("flag-definition").value);
              for (const input of $("flag-rollouts").querySelectorAll("input[data-rule]")) {
                const rule = definition.rules && definition.rules[Number(input.dataset.rule)];
                if (rule && rule.rollout) rule.rollout.percentage = input.value === "" ? null : Number(input.value);
              }
              return definition;
            },

            async save() {
              const message = $("flag-editor-message");
              let definition;
              try { definition = this.definition(); } catch (error) { message.textContent = "The definition is not valid JSON: " + error.message; return; }
              try {
                await C.api("PUT", this.base() + "/definitions/" + encodeURIComponent(this.editing), definition);
                message.textContent = "";
                C.notice("Saved flag " + this.editing + ".");
                await this.load();
                this.edit(this.editing);
              } catch (error) { message.textContent = error.message; }
            },

            async kill() {
              try {
                await C.api("POST", this.base() + "/definitions/" + encodeURIComponent(this.editing) + "/kill");
                C.notice("Killed flag " + this.editing + ".");
                await this.load();
                this.edit(this.editing);
              } catch (error) { $("flag-editor-message").textContent = error.message; }
            },

            async preview() {
              const attributes = {};
              for (const line of $("preview-attributes").value.split("\n")) {
                const at = line.indexOf("=");
                if (at > 0) attributes[line.slice(0, at).trim()] = line.slice(at + 1).trim();
              }
              const key = $("preview-flag").value;
              const body = { context: { targetingKey: $("preview-targeting-key").value, attributes }, flags: [key] };
              try {
                const answer = await C.api("POST", this.base() + "/evaluate", body);
                const details = answer.flags[key] || {};
                $("preview-result").textContent = key + " = " + JSON.stringify(details.value) +
                  (details.variant ? " (variant " + details.variant + ")" : "") + ", reason " + details.reason;
              } catch (error) { $("preview-result").textContent = error.message; }
            },
          };
          C.views.flags = flags;

          document.addEventListener("DOMContentLoaded", () => {
            $("flags-environment-form").addEventListener("submit", (event) => { event.preventDefault(); flags.enter(); });
            $("flag-save").addEventListener("click", () => flags.save());
            $("flag-kill").addEventListener("click", () => flags.kill());
            $("preview-form").addEventListener("submit", (event) => { event.preventDefault(); flags.preview(); });
          });
        """#)
}
