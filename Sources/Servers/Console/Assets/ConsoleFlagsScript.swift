/// The flags view: the list with owner, expiry and state, the editor (`ConsoleFlagEditorScript`),
/// kill behind an in-page confirmation, revive, the evaluation preview and the audit with who
/// made each change and what changed, member by member.
enum ConsoleFlagsScript {
    static let flags = ConsoleScript.view(
        #"""

          const flags = {
            environment: "development", environments: [], list: [], segments: [], editing: null,
            // The environment's version when the list was read: edits are sent with it as
            // If-Match, so one made from an older read is refused (412) instead of writing over
            // a change made since (by another console, the CLI or another instance).
            version: 0, loads: 0, loadedFrom: undefined,

            enter() {
              C.showOnly("flags-view");
              $("flag-editor").hidden = true;
              C.say("flag-action-status", "");
              this.editing = null;
              this.environment = $("flags-environment").value.trim() || "development";
              return this.load();
            },

            leave() { if ($("kill-dialog").open) $("kill-dialog").close(); },

            base() { return "/v1/flags/" + encodeURIComponent(this.environment); },

            // The environments that have definitions (`GET /v1/flags`), offered by the selector.
            async loadEnvironments() {
              try { this.environments = (await C.api("GET", "/v1/flags")).environments.map((e) => e.key); } catch (_) { this.environments = []; }
              const options = $("flags-environments");
              C.clear(options);
              for (const key of this.environments) options.appendChild(C.element("option", null, { value: key }));
            },

            async load() {
              $("flags-message").textContent = "";
              const body = document.querySelector("#flags-table tbody");
              C.clear(body);
              // Only the latest read counts: an older one answering late would pair this
              // environment with another's list and version.
              const load = ++this.loads;
              await this.loadEnvironments();
              let answer, failure;
              try { answer = await C.api("GET", this.base() + "/definitions"); } catch (error) { failure = error; }
              if (load !== this.loads) return;
              if (answer) {
                this.list = answer.flags;
                this.segments = answer.segments || [];
                this.version = answer.version;
              } else {
                this.list = [];
                this.segments = [];
                // No definitions yet: an edit creates the environment (version 0). Any other
                // failure leaves no version to edit from.
                this.version = failure.status === 404 ? 0 : null;
                $("flags-message").textContent = failure.message;
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
                edit.addEventListener("click", () => { this.edit(flag.key); $("flag-enabled").focus(); });
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
              let entries = [];
              try { entries = (await C.api("GET", this.base() + "/audit?limit=20")).entries; } catch (_) { /* an empty environment */ }
              if (entries.length === 0) list.appendChild(C.element("li", "No changes in this environment yet.", { class: "empty" }));
              for (const entry of entries) list.appendChild(this.auditItem(entry));
            },

            // One change: when, who, what, and each member that changed, before → after.
            auditItem(entry) {
              const item = C.element("li", null, { class: "audit-entry", "data-audit-id": String(entry.id) });
              const head = C.element("p", null, { class: "audit-head" });
              const at = C.element("time", entry.at, { datetime: entry.at });
              head.appendChild(at);
              head.appendChild(C.element("span", entry.actor || "unknown actor", { class: "audit-actor" }));
              head.appendChild(C.element("span", entry.action + " " + entry.subject + " " + entry.key, { class: "audit-what" }));
              head.appendChild(C.element("span", "version " + entry.version, { class: "audit-version" }));
              item.appendChild(head);
              const changes = C.element("ul", null, { class: "diff", "aria-label": "What changed" });
              const show = (value) => value === undefined ? "(absent)" : JSON.stringify(value);
              if (entry.before === null || entry.before === undefined) {
                changes.appendChild(C.element("li", "created: " + JSON.stringify(entry.after)));
              } else {
                const diffs = C.diff(entry.before, entry.after);
                if (diffs.length === 0) changes.appendChild(C.element("li", "no change"));
                for (const change of diffs) {
                  const line = C.element("li");
                  line.appendChild(C.element("code", change.path, { class: "diff-path" }));
                  line.appendChild(document.createTextNode(": "));
                  line.appendChild(C.element("del", show(change.before)));
                  line.appendChild(document.createTextNode(" → "));
                  line.appendChild(C.element("ins", show(change.after)));
                  changes.appendChild(line);
                }
              }
              item.appendChild(changes);
              return item;
            },

            edit(key, definition) {
              const flag = definition || this.list.find((f) => f.key === key);
              if (!flag) return;
              // A notice speaks of the flag it came from: choosing another clears it.
              if (this.editing !== key) C.say("flag-action-status", "");
              this.editing = key;
              $("flag-editor").hidden = false;
              $("flag-editor-heading").textContent = "Edit flag " + key;
              $("flag-enabled-label").textContent = "On in " + this.environment;
              C.flagEditor.load(flag, this.segments.map((s) => s.key));
              const stored = this.list.find((f) => f.key === key);
              this.loadedFrom = stored === undefined ? undefined : JSON.parse(JSON.stringify(stored));
              this.showStates(key, stored);
              this.showKillOrRevive(stored);
              if (stored) $("preview-flag").value = key;
            },

            showKillOrRevive(stored) {
              const killed = stored !== undefined && stored.enabled === false;
              $("flag-kill").hidden = killed || stored === undefined;
              $("flag-revive").hidden = !killed;
            },

            // The flag's state in every environment (up to 20), each a way to open it there; where
            // it is not defined, a way to start from this definition there.
            async showStates(key, stored) {
              const list = $("flag-environment-states");
              const environments = this.environments.filter((e) => e !== this.environment).slice(0, 19);
              const states = [[this.environment, stored]].concat(await Promise.all(environments.map(async (environment) => {
                try {
                  const answer = await C.api("GET", "/v1/flags/" + encodeURIComponent(environment) + "/definitions");
                  return [environment, answer.flags.find((f) => f.key === key)];
                } catch (_) { return [environment, undefined]; }
              })));
              if (this.editing !== key) return;
              C.clear(list);
              states.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
              for (const [environment, flag] of states) {
                const state = flag === undefined ? "not defined" : flag.enabled === false ? "killed" : "on";
                const item = C.element("li", null, { "data-environment": environment });
                item.appendChild(C.element("span", environment + ": " + state, { class: state === "killed" ? "killed" : "state" }));
                if (environment === this.environment) {
                  item.appendChild(C.element("span", "(shown)", { class: "hint" }));
                } else {
                  const label = (flag === undefined ? "Start from this definition in " : "Open in ") + environment;
                  const open = C.element("button", label, { type: "button" });
                  open.addEventListener("click", () => this.openIn(environment, key, flag === undefined ? C.flagEditor.draft : null));
                  item.appendChild(open);
                }
                list.appendChild(item);
              }
            },

            // Shows the flag in another environment: the stored one, or a copy of `draft` to save there.
            async openIn(environment, key, draft) {
              $("flags-environment").value = environment;
              await this.enter();
              if (draft && this.list.some((f) => f.key === key)) {
                // Defined there since its state was read: the stored flag opens, not the copy.
                this.edit(key);
                C.say("flag-action-status", key + " is defined in " + environment + " now: this is the stored definition.");
              } else if (draft) {
                this.edit(key, JSON.parse(JSON.stringify(draft)));
                C.say("flag-action-status", "A copy of " + key + " for " + environment + ": not stored until you save it.");
              } else this.edit(key);
              $("flag-enabled").focus();
            },

            // Saves the JSON (the fields' draft, or a hand edit of it); the server's message goes
            // beside the field its path names, the outcome beside the button.
            async save() {
              let definition;
              C.say("flag-action-status", "");
              try { definition = C.flagEditor.definition(); } catch (error) {
                $("flag-json-error").textContent = "The definition is not valid JSON: " + error.message;
                return;
              }
              if (this.version === null) {
                C.say("flag-action-status", "Not saved: the flags of " + this.environment + " could not be read; choose the environment again.");
                return;
              }
              try {
                const answer = await C.api("PUT", this.base() + "/definitions/" + encodeURIComponent(this.editing), definition,
                  this.ifMatch());
                await this.load();
                this.edit(this.editing);
                C.say("flag-action-status", "Saved flag " + this.editing + " (version " + answer.version + ").");
              } catch (error) {
                if (error.status === 412) {
                  // The list is read again; the fields keep the edit, which a second save stores.
                  // When this flag itself changed (a kill), the notice names what changed, so a
                  // second save does not undo it unseen.
                  const key = this.editing;
                  await this.load();
                  const stored = this.list.find((f) => f.key === key);
                  const changes = C.diff(this.loadedFrom, stored).map((c) => c.path + ": " + JSON.stringify(c.before) + " → " + JSON.stringify(c.after));
                  this.loadedFrom = stored === undefined ? undefined : JSON.parse(JSON.stringify(stored));
                  this.showKillOrRevive(stored);
                  C.say("flag-action-status", "Not saved: " + error.message + ". " + (changes.length === 0
                    ? "Flag " + key + " itself is unchanged: the fields keep your edit; save again to store it."
                    : "Flag " + key + " itself changed since you opened it (" + changes.join("; ") +
                      "): the fields keep your edit; save again to store it over that."));
                  return;
                }
                C.flagEditor.showError(error.message);
                C.say("flag-action-status", "Not saved: " + error.message);
              }
            },

            ifMatch() { return { "If-Match": '"' + this.version + '"' }; },

            askKill() {
              $("kill-dialog-heading").textContent = "Kill flag " + this.editing + " in " + this.environment + "?";
              $("kill-dialog-text").textContent = "Every client in " + this.environment + " gets its own default value for " +
                this.editing + " until the flag is revived. Clients apply a kill at their next fetch, without waiting for a screen change.";
              $("kill-confirm").textContent = "Kill " + this.editing;
              $("kill-dialog").showModal();
              $("kill-cancel").focus();
            },

            async kill() {
              $("kill-dialog").close();
              await this.act("POST", "/kill", undefined, "Killed flag " + this.editing + ".");
              $("flag-revive").focus();
            },

            // Revive stores the stored definition again with `"enabled": true`, as `courier flags
            // revive` does; edits not saved in the fields stay out of it.
            async revive() {
              const stored = this.list.find((f) => f.key === this.editing);
              if (!stored) return;
              await this.act("PUT", "", Object.assign({}, stored, { enabled: true }), "Revived flag " + this.editing + ".");
              $("flag-kill").focus();
            },

            // A kill needs no If-Match: the server turns off the definition as stored. A revive
            // stores the definition as read, so it carries the version read.
            async act(method, suffix, body, done) {
              C.say("flag-action-status", "");
              try {
                await C.api(method, this.base() + "/definitions/" + encodeURIComponent(this.editing) + suffix, body,
                  method === "PUT" ? this.ifMatch() : undefined);
                await this.load();
                this.edit(this.editing);
                C.say("flag-action-status", done);
              } catch (error) {
                if (error.status === 412) {
                  await this.load();
                  this.edit(this.editing);
                  C.say("flag-action-status", "Not revived: " + error.message + ". The flag is shown as stored now.");
                  return;
                }
                C.say("flag-action-status", error.message);
              }
            },

            create(key) {
              if (this.list.some((f) => f.key === key)) return this.edit(key);
              this.edit(key, { key, type: "bool", value: false });
              C.say("flag-action-status", "New flag " + key + ": not stored until you save it.");
              $("flag-type").focus();
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
            $("flag-kill").addEventListener("click", () => flags.askKill());
            $("kill-confirm").addEventListener("click", () => flags.kill());
            $("kill-cancel").addEventListener("click", () => { $("kill-dialog").close(); $("flag-kill").focus(); });
            $("flag-revive").addEventListener("click", () => flags.revive());
            $("flag-new-form").addEventListener("submit", (event) => {
              event.preventDefault();
              const key = $("flag-new-key").value.trim();
              if (key) flags.create(key);
            });
            $("preview-form").addEventListener("submit", (event) => { event.preventDefault(); flags.preview(); });
          });
        """#)
}
