/// The structured flag editor: fields for type, default value, owner, expiry and the on/off of
/// the environment, and a list of rules (id, conditions, segments, rollout, value), kept in step
/// with the raw JSON beside them. Both are views of one draft definition, so members the fields do
/// not show (a rollout's algorithm, a rule's variant) survive an edit. The server's validation
/// message (`rules[0].rollout.percentage: must be …`) is shown beside the field its path names.
enum ConsoleFlagEditorScript {
    static let editor = ConsoleScript.view(
        #"""
          const operators = ["equals", "notEquals", "in", "notIn", "lt", "lte", "gt", "gte", "semverEq", "semverLt",
            "semverLte", "semverGt", "semverGte", "regex"];

          // Text typed into a value field as the flag's type wants it; text that does not fit is
          // sent as typed, so the server's message names the field.
          const parseValue = (text, type) => {
            const trimmed = text.trim();
            if (type === "bool") return trimmed === "true" ? true : trimmed === "false" ? false : text;
            if (type === "int" || type === "double") return trimmed !== "" && !Number.isNaN(Number(trimmed)) ? Number(trimmed) : text;
            if (type === "json") { try { return JSON.parse(trimmed); } catch (_) { return text; } }
            return text;
          };
          const showValue = (value) => value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
          // Condition values: comma-separated, each JSON when it parses (5, true) and text otherwise,
          // as `courier flags segment set --condition` reads them; a regex is one value.
          const parseValues = (text, operator) => {
            if (text.trim() === "") return [];
            const parts = operator === "regex" ? [text] : text.split(",");
            return parts.map((part) => { try { return JSON.parse(part.trim()); } catch (_) { return part.trim(); } });
          };
          const showValues = (values) => (values || []).map((v) => typeof v === "string" ? v : JSON.stringify(v)).join(", ");
          const commaList = (text) => text.split(",").map((s) => s.trim()).filter(Boolean);

          const editor = {
            draft: null, segments: [],

            // Shows `definition` in the fields and the JSON; `segments` are the environment's keys.
            load(definition, segments) {
              this.draft = JSON.parse(JSON.stringify(definition));
              this.segments = segments || [];
              $("flag-json-error").textContent = "";
              this.clearErrors();
              this.render();
              this.sync();
            },

            // The definition to save: the JSON, which is always the draft or a hand edit of it.
            definition() { return JSON.parse($("flag-definition").value); },

            sync() { $("flag-definition").value = JSON.stringify(this.draft, null, 2); },

            changed() { this.clearErrors(); this.sync(); },

            // A hand edit of the JSON: when it parses as an object, the fields follow it.
            fromText() {
              let parsed;
              try { parsed = JSON.parse($("flag-definition").value); } catch (error) {
                $("flag-json-error").textContent = "Not valid JSON yet: " + error.message;
                return;
              }
              if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
                $("flag-json-error").textContent = "A definition is a JSON object.";
                return;
              }
              $("flag-json-error").textContent = "";
              this.draft = parsed;
              this.render();
            },

            // Owner and expiry: an empty field removes the member.
            set(member, value) {
              if (value === "") delete this.draft[member]; else this.draft[member] = value;
              this.changed();
            },

            render() {
              const d = this.draft;
              $("flag-type").value = d.type || "bool";
              $("flag-value").value = showValue(d.value);
              $("flag-owner").value = d.owner || "";
              $("flag-expires").value = d.expires || "";
              $("flag-enabled").checked = d.enabled !== false;
              const list = $("flag-rules");
              C.clear(list);
              (d.rules || []).forEach((rule, index) => list.appendChild(this.ruleItem(rule, index)));
              if (!(d.rules || []).length) list.appendChild(C.element("li", "No rules: everyone gets the default value.", { class: "empty" }));
            },

            // A labelled input (or select) that writes into the draft on every change.
            field(id, labelText, value, path, onInput, options) {
              const field = C.element("div", null, { class: "field" });
              field.appendChild(C.element("label", labelText, { for: id }));
              let input;
              if (options) {
                input = C.element("select", null, { id });
                for (const option of options) input.appendChild(C.element("option", option, { value: option }));
                if (!options.includes(value)) input.appendChild(C.element("option", value, { value }));
                input.value = value;
              } else {
                input = C.element("input", null, { id, type: "text", spellcheck: "false" });
                input.value = value;
              }
              input.addEventListener(options ? "change" : "input", () => { onInput(input.value); this.changed(); });
              field.appendChild(input);
              field.appendChild(C.element("span", null, { class: "field-error", "data-error-for": path }));
              return field;
            },

            ruleItem(rule, index) {
              const path = "rules[" + index + "]", id = "rule-" + index;
              const item = C.element("li", null, { class: "rule", "data-rule": String(index) });
              item.appendChild(C.element("h4", "Rule " + (index + 1) + (rule.id ? " (" + rule.id + ")" : "")));
              item.appendChild(C.element("p", null, { class: "field-error", "data-error-for": path }));
              item.appendChild(this.field(id + "-id", "Rule id", rule.id || "", path + ".id", (text) => {
                if (text) rule.id = text; else delete rule.id;
              }));
              const known = this.segments.length ? " (defined: " + this.segments.join(", ") + ")" : " (none defined)";
              item.appendChild(this.field(id + "-segments", "Segments, all must match" + known, (rule.segments || []).join(", "),
                path + ".segments", (text) => {
                  const names = commaList(text);
                  if (names.length) rule.segments = names; else delete rule.segments;
                }));
              item.appendChild(C.element("p", (rule.conditions || []).length ? "Conditions, all must hold:" : "No conditions.", { class: "hint" }));
              const conditions = C.element("ul", null, { class: "conditions", "aria-label": "Conditions of rule " + (index + 1) });
              (rule.conditions || []).forEach((condition, at) => conditions.appendChild(this.conditionItem(rule, condition, index, at)));
              item.appendChild(conditions);
              const percentage = rule.rollout && rule.rollout.percentage !== undefined ? String(rule.rollout.percentage) : "";
              item.appendChild(this.field(id + "-rollout", "Rollout % of those matched (empty: all)", percentage, path + ".rollout", (text) => {
                if (text.trim() === "") { delete rule.rollout; return; }
                rule.rollout = Object.assign(rule.rollout || {}, { percentage: parseValue(text, "double") });
              }));
              item.appendChild(this.field(id + "-value", "Value when it matches", showValue(rule.value), path + ".value", (text) => {
                rule.value = parseValue(text, this.draft.type);
              }));
              const controls = C.element("div", null, { class: "controls" });
              const add = C.element("button", "Add condition", { type: "button", id: id + "-add-condition" });
              add.addEventListener("click", () => {
                rule.conditions = (rule.conditions || []).concat([{ attribute: "", operator: "equals", values: [] }]);
                this.changed(); this.render();
                $(id + "-condition-" + (rule.conditions.length - 1) + "-attribute").focus();
              });
              const remove = C.element("button", "Remove rule", { type: "button", id: id + "-remove" });
              remove.addEventListener("click", () => {
                this.draft.rules.splice(index, 1);
                if (this.draft.rules.length === 0) delete this.draft.rules;
                this.changed(); this.render();
                $("flag-add-rule").focus();
              });
              controls.appendChild(add);
              controls.appendChild(remove);
              item.appendChild(controls);
              return item;
            },

            conditionItem(rule, condition, index, at) {
              const path = "rules[" + index + "].conditions[" + at + "]", id = "rule-" + index + "-condition-" + at;
              const item = C.element("li", null, { class: "condition" });
              item.appendChild(this.field(id + "-attribute", "Attribute", condition.attribute || "", path + ".attribute", (text) => {
                condition.attribute = text;
              }));
              item.appendChild(this.field(id + "-operator", "Operator", condition.operator || "equals", path + ".operator", (text) => {
                condition.operator = text;
              }, operators));
              item.appendChild(this.field(id + "-values", "Values (comma-separated)", showValues(condition.values), path + ".values", (text) => {
                condition.values = parseValues(text, condition.operator);
              }));
              item.appendChild(C.element("span", null, { class: "field-error", "data-error-for": path }));
              const remove = C.element("button", "Remove condition", { type: "button", id: id + "-remove" });
              remove.addEventListener("click", () => {
                rule.conditions.splice(at, 1);
                if (rule.conditions.length === 0) delete rule.conditions;
                this.changed(); this.render();
                $("rule-" + index + "-add-condition").focus();
              });
              item.appendChild(remove);
              return item;
            },

            addRule() {
              const rules = this.draft.rules || [];
              let n = rules.length + 1;
              while (rules.some((rule) => rule.id === "rule-" + n)) n += 1;
              this.draft.rules = rules.concat([{ id: "rule-" + n, value: this.draft.value }]);
              this.changed(); this.render();
              $("rule-" + (this.draft.rules.length - 1) + "-id").focus();
            },

            clearErrors() {
              for (const slot of $("flag-editor").querySelectorAll("[data-error-for]")) slot.textContent = "";
            },

            // Puts the server's message beside the field its path names (or the nearest section
            // that has a place for it), and returns the element it went to.
            showError(message) {
              this.clearErrors();
              const match = /^([A-Za-z_]\w*(?:\[\d+\]|\.[A-Za-z_]\w*)*): ([\s\S]*)$/.exec(message);
              let path = match ? match[1] : "";
              for (;;) {
                const slot = $("flag-editor").querySelector('[data-error-for="' + path + '"]');
                if (slot) { slot.textContent = message; return slot; }
                if (path === "") return null;
                const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
                path = cut > 0 ? path.slice(0, cut) : "";
              }
            },
          };
          C.flagEditor = editor;

          document.addEventListener("DOMContentLoaded", () => {
            $("flag-type").addEventListener("change", () => {
              const type = $("flag-type").value;
              editor.draft.type = type;
              editor.draft.value = parseValue($("flag-value").value, type);
              for (const rule of editor.draft.rules || []) rule.value = parseValue(showValue(rule.value), type);
              editor.changed();
            });
            // An empty default is a value for a string flag (and a complaint for the others): kept, not removed.
            $("flag-value").addEventListener("input", () => {
              editor.draft.value = parseValue($("flag-value").value, editor.draft.type);
              editor.changed();
            });
            $("flag-owner").addEventListener("input", () => editor.set("owner", $("flag-owner").value.trim()));
            $("flag-expires").addEventListener("input", () => editor.set("expires", $("flag-expires").value.trim()));
            $("flag-enabled").addEventListener("change", () => { editor.draft.enabled = $("flag-enabled").checked; editor.changed(); });
            $("flag-add-rule").addEventListener("click", () => editor.addRule());
            $("flag-definition").addEventListener("input", () => editor.fromText());
          });
        """#)
}
