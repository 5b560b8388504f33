/// The console's style sheet: one column that wraps, sizes in `rem` so the page reflows at 200 %
/// zoom, and a visible focus ring for keyboard use. `hidden` wins over every `display` rule
/// (`nav { display: flex }` would otherwise show the signed-out page's navigation).
enum ConsoleStyle {
    static let css = #"""
        [hidden] { display: none !important; }
        :root { font-family: system-ui, sans-serif; line-height: 1.4; color: #1b1b1b; background: #fafafa; }
        body { margin: 0 auto; padding: 0 1rem 2rem; max-width: 80rem; }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; justify-content: space-between; }
        nav { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
        h1 { font-size: 1.5rem; } h2 { font-size: 1.3rem; } h3 { font-size: 1.1rem; margin-top: 2rem; }
        .skip { position: absolute; left: -100rem; } .skip:focus { position: static; }
        :focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
        button, input, select, textarea { font: inherit; }
        button { padding: 0.3rem 0.8rem; border: 1px solid #555; border-radius: 0.3rem; background: #fff; cursor: pointer; }
        input, select, textarea { padding: 0.25rem 0.4rem; border: 1px solid #777; border-radius: 0.2rem; max-width: 100%; }
        textarea { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; }
        .controls { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
        .field { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; align-items: center; margin: 0.4rem 0; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; min-width: 100%; }
        caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
        th, td { text-align: left; padding: 0.3rem 0.6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
        .debugger { display: flex; flex-wrap: wrap; gap: 1rem; }
        #event-list { flex: 1 1 20rem; max-height: 30rem; overflow-y: auto; padding-left: 0; list-style: none; margin: 0; }
        #event-list button { width: 100%; text-align: left; border: none; border-bottom: 1px solid #ddd;
          border-radius: 0; background: none; overflow-wrap: anywhere; }
        #event-list button[aria-current="true"] { background: #e8f0fb; }
        #event-detail { flex: 1 1 24rem; min-width: 0; }
        pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f0f0f0; padding: 0.6rem; max-height: 30rem; overflow: auto; }
        .empty, #event-list .row-time { color: #555; font-size: 0.9rem; }
        #event-list button { display: flex; flex-wrap: wrap; gap: 0.2rem 0.8rem; }
        #event-list .row-name { font-weight: 600; }
        #event-list .row-props { font-family: ui-monospace, monospace; font-size: 0.9rem; }
        #event-list .row-time { margin-left: auto; }
        .overdue { color: #a51d2d; font-weight: 600; }
        .killed { color: #a51d2d; }
        [role="alert"]:not(:empty), .field-error:not(:empty) { color: #a51d2d; }
        .field-error:not(:empty) { font-weight: 600; }
        .beside { color: #26662b; font-weight: 600; }
        .hint { color: #555; font-size: 0.9rem; }
        .editor { display: flex; flex-wrap: wrap; gap: 1rem; }
        .editor .structured { flex: 1 1 26rem; min-width: 0; }
        .editor .raw { flex: 1 1 22rem; min-width: 0; }
        fieldset { border: 1px solid #ccc; border-radius: 0.3rem; margin: 0 0 0.8rem; }
        #flag-rules { padding-left: 1.2rem; }
        #flag-rules .rule { border-bottom: 1px solid #ddd; padding: 0.3rem 0 0.6rem; }
        #flag-rules h4 { margin: 0.3rem 0; }
        .conditions { list-style: none; padding-left: 0.8rem; border-left: 3px solid #e8f0fb; }
        .conditions .condition { display: flex; flex-wrap: wrap; gap: 0 0.8rem; align-items: center; }
        dialog { border: 2px solid #a51d2d; border-radius: 0.4rem; max-width: 32rem; }
        dialog::backdrop { background: rgba(0, 0, 0, 0.35); }
        #kill-confirm, #flag-kill { border-color: #a51d2d; color: #a51d2d; }
        .environment-states ul { display: flex; flex-wrap: wrap; gap: 0.3rem 1.5rem; padding-left: 0; list-style: none; }
        .environment-states li { display: flex; gap: 0.5rem; align-items: center; }
        .audit-head { display: flex; flex-wrap: wrap; gap: 0.2rem 0.8rem; margin: 0.4rem 0 0.1rem; }
        .audit-actor { font-weight: 600; }
        .diff { margin: 0 0 0.6rem; font-size: 0.9rem; }
        .diff del { color: #a51d2d; } .diff ins { color: #26662b; text-decoration: none; }
        .chart { margin: 0; display: inline-flex; flex-direction: column; gap: 0.1rem; }
        .chart-svg { width: 20rem; height: 7.5rem; }
        .chart-svg .bar { fill: #1a5fb4; }
        .chart-svg .hit { fill: transparent; }
        .chart-svg .hit:hover, .chart-svg .hit.current { fill: rgba(26, 95, 180, 0.2); }
        .chart-svg .axis { stroke: #555; stroke-width: 1; }
        .chart-svg .grid { stroke: #ddd; stroke-width: 0.5; }
        .chart-svg text { font-size: 9px; fill: #333; }
        .chart-readout { color: #555; font-size: 0.9rem; }
        """#
}
