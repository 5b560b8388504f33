/// The console's one HTML page; everything it shows is filled in by its scripts, as text.
enum ConsolePage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Courier Console</title>
        <link rel="stylesheet" href="/console/app.css">
        <script src="/console/app.js" defer></script>
        <script src="/console/sources.js" defer></script>
        <script src="/console/flag-editor.js" defer></script>
        <script src="/console/flags.js" defer></script>
        <script src="/console/messenger.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <h1>Courier Console</h1>
          <nav id="nav" aria-label="Sections" hidden>
            <a href="#sources">Sources</a>
            <a href="#flags">Flags</a>
            <a href="#messenger">Messenger</a>
            <button type="button" id="sign-out">Sign out</button>
          </nav>
        </header>
        <main id="main" tabindex="-1">
          <p id="notice" role="status"></p>

          <section id="sign-in-view" hidden aria-labelledby="sign-in-heading">
            <h2 id="sign-in-heading">Sign in</h2>
            <form id="sign-in-form">
              <label for="token">Admin token</label>
              <input id="token" name="token" type="password" autocomplete="current-password" required>
              <button type="submit">Sign in</button>
            </form>
            <p id="sign-in-error" role="alert"></p>
          </section>

          <section id="sources-view" hidden aria-labelledby="sources-heading">
            <h2 id="sources-heading">Sources</h2>
            <div class="scroll">
              <table id="sources-table">
                <caption>Write keys and events per minute over the last hour</caption>
                <thead><tr><th scope="col">Write key</th><th scope="col">Collecting</th>
                  <th scope="col">Events per minute</th><th scope="col">Last minute</th></tr></thead>
                <tbody></tbody>
              </table>
            </div>
          </section>

          <section id="source-view" hidden aria-labelledby="source-heading">
            <h2 id="source-heading">Source</h2>
            <p><a href="#sources">All sources</a></p>

            <section aria-labelledby="debugger-heading">
              <h3 id="debugger-heading">Live debugger</h3>
              <div class="controls">
                <button type="button" id="pause" aria-pressed="false">Pause</button>
                <label for="filter-type">Type</label>
                <select id="filter-type">
                  <option value="">all</option><option>track</option><option>identify</option><option>page</option>
                  <option>screen</option><option>group</option><option>alias</option>
                </select>
                <label for="filter-name">Event name</label>
                <input id="filter-name" type="search">
              </div>
              <p id="stream-status" role="status"></p>
              <div class="debugger">
                <ol id="event-list" aria-label="Events, newest first"></ol>
                <section id="event-detail" aria-labelledby="event-detail-heading">
                  <h4 id="event-detail-heading">Stored JSON</h4>
                  <pre id="event-json" tabindex="0">Choose an event to see it as stored.</pre>
                </section>
              </div>
            </section>

            <section aria-labelledby="volume-heading">
              <h3 id="volume-heading">Volume</h3>
              <p id="volume-empty" role="status"></p>
              <div class="scroll">
                <table id="volume-table">
                  <caption>Events by type: per minute over the last hour, per hour over the last day</caption>
                  <thead><tr><th scope="col">Type</th><th scope="col">Per minute</th><th scope="col">Last hour</th>
                    <th scope="col">Per hour</th><th scope="col">Last day</th></tr></thead>
                  <tbody></tbody>
                </table>
              </div>
            </section>

            <section aria-labelledby="rejections-heading">
              <h3 id="rejections-heading">Rejections</h3>
              <ul id="rejection-counts"></ul>
              <ol id="rejection-recent" aria-label="Last reasons, newest first"></ol>
            </section>

            <section aria-labelledby="settings-heading">
              <h3 id="settings-heading">Settings</h3>
              <form id="settings-form">
                <div class="field"><input id="setting-enabled" type="checkbox">
                  <label for="setting-enabled">Collecting (clear to turn the kill switch on)</label></div>
                <div class="field"><label for="setting-sample-rate">Sample rate (%)</label>
                  <input id="setting-sample-rate" type="number" min="0" max="100" step="any" required></div>
                <div class="field"><label for="setting-flush-at">Flush at (events)</label>
                  <input id="setting-flush-at" type="number" min="1" max="2500" step="1" required></div>
                <div class="field"><label for="setting-flush-interval">Flush interval (seconds)</label>
                  <input id="setting-flush-interval" type="number" min="0.001" max="86400" step="any" required></div>
                <div class="field"><label for="setting-allow-list">Property allow-list (comma-separated; empty keeps all)</label>
                  <input id="setting-allow-list" type="text"></div>
                <div class="controls"><button type="submit">Save settings</button>
                  <span id="settings-status" class="beside" role="status" data-notice></span></div>
              </form>
              <p id="settings-message" role="alert"></p>
              <h4>Change history</h4>
              <ol id="settings-history"></ol>
            </section>
          </section>

          <section id="flags-view" hidden aria-labelledby="flags-heading">
            <h2 id="flags-heading">Flags</h2>
            <form id="flags-environment-form" class="controls">
              <label for="flags-environment">Environment</label>
              <input id="flags-environment" type="text" value="development" list="flags-environments" required>
              <datalist id="flags-environments"></datalist>
              <button type="submit">Show flags</button>
            </form>
            <p id="flags-message" role="alert"></p>
            <div class="scroll">
              <table id="flags-table">
                <caption>Flags of the environment</caption>
                <thead><tr><th scope="col">Flag</th><th scope="col">Owner</th><th scope="col">Expires</th>
                  <th scope="col">State</th><th scope="col">Actions</th></tr></thead>
                <tbody></tbody>
              </table>
            </div>

            <form id="flag-new-form" class="controls">
              <label for="flag-new-key">New flag key</label>
              <input id="flag-new-key" type="text" required>
              <button type="submit">New flag</button>
            </form>

            <section id="flag-editor" hidden aria-labelledby="flag-editor-heading">
              <h3 id="flag-editor-heading">Edit flag</h3>
              <p class="hint">The fields and the JSON are two views of one definition: a change in either shows in
                the other. Saving sends the JSON, which the server validates; its complaints show beside the field.</p>
              <section class="environment-states" aria-labelledby="flag-environments-heading">
                <h4 id="flag-environments-heading">In each environment</h4>
                <ul id="flag-environment-states"></ul>
              </section>
              <div class="editor">
                <div class="structured">
                  <fieldset>
                    <legend>Flag</legend>
                    <div class="field"><input id="flag-enabled" type="checkbox">
                      <label for="flag-enabled" id="flag-enabled-label">On in this environment</label>
                      <span class="field-error" data-error-for="enabled"></span></div>
                    <div class="field"><label for="flag-type">Type</label>
                      <select id="flag-type"><option>bool</option><option>string</option><option>int</option>
                        <option>double</option><option>json</option></select>
                      <span class="field-error" data-error-for="type"></span></div>
                    <div class="field"><label for="flag-value">Default value</label>
                      <input id="flag-value" type="text" spellcheck="false">
                      <span class="field-error" data-error-for="value"></span></div>
                    <div class="field"><label for="flag-owner">Owner</label>
                      <input id="flag-owner" type="text">
                      <span class="field-error" data-error-for="owner"></span></div>
                    <div class="field"><label for="flag-expires">Expires (YYYY-MM-DD)</label>
                      <input id="flag-expires" type="text" placeholder="YYYY-MM-DD" spellcheck="false">
                      <span class="field-error" data-error-for="expires"></span></div>
                  </fieldset>
                  <fieldset>
                    <legend>Rules, first match wins</legend>
                    <p class="field-error" data-error-for="rules"></p>
                    <ol id="flag-rules"></ol>
                    <button type="button" id="flag-add-rule">Add rule</button>
                  </fieldset>
                </div>
                <div class="raw">
                  <label for="flag-definition">Definition (JSON)</label>
                  <textarea id="flag-definition" rows="20" spellcheck="false"></textarea>
                  <p id="flag-json-error" role="alert"></p>
                </div>
              </div>
              <div class="controls"><button type="button" id="flag-save">Save flag</button>
                <button type="button" id="flag-kill">Kill flag</button>
                <button type="button" id="flag-revive" hidden>Revive flag</button>
                <span id="flag-action-status" class="beside" role="status" data-notice></span></div>
              <p id="flag-editor-message" role="alert" data-error-for=""></p>
              <dialog id="kill-dialog" aria-labelledby="kill-dialog-heading" aria-describedby="kill-dialog-text">
                <h4 id="kill-dialog-heading">Kill this flag?</h4>
                <p id="kill-dialog-text"></p>
                <div class="controls"><button type="button" id="kill-confirm">Kill</button>
                  <button type="button" id="kill-cancel">Cancel</button></div>
              </dialog>
            </section>

            <section aria-labelledby="preview-heading">
              <h3 id="preview-heading">Evaluation preview</h3>
              <form id="preview-form">
                <div class="field"><label for="preview-flag">Flag</label><select id="preview-flag"></select></div>
                <div class="field"><label for="preview-targeting-key">Targeting key</label>
                  <input id="preview-targeting-key" type="text"></div>
                <div class="field"><label for="preview-attributes">Attributes (one name=value a line)</label>
                  <textarea id="preview-attributes" rows="3" spellcheck="false"></textarea></div>
                <button type="submit">Evaluate</button>
              </form>
              <pre id="preview-result" role="status" tabindex="0"></pre>
            </section>

            <section aria-labelledby="audit-heading">
              <h3 id="audit-heading">Audit</h3>
              <ol id="flags-audit"></ol>
            </section>
          </section>
          <section id="messenger-view" hidden aria-labelledby="messenger-heading">
            <h2 id="messenger-heading">Messenger</h2>
            <p>Devices, their mailboxes and pushes. The server never has message content.</p>
            <p id="messenger-summary" role="status"></p>
            <div class="scroll">
              <table id="messenger-table">
                <caption>Devices by account</caption>
                <thead><tr><th scope="col">Account</th><th scope="col">Device</th><th scope="col">Online</th>
                  <th scope="col">Mailbox depth</th><th scope="col">Oldest envelope</th><th scope="col">Push</th></tr></thead>
                <tbody></tbody>
              </table>
            </div>
            <button type="button" id="messenger-refresh">Refresh</button>
          </section>
        </main>
        </body>
        </html>
        """#
}
