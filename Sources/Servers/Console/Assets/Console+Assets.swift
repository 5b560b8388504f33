import CourierHTTP

extension Console {
    /// The headers on every page and asset: a Content-Security-Policy that admits only this
    /// server's own scripts, styles and connections (no inline script, no framing), and no caching
    /// of what a signed-in person saw.
    static let pageHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
                + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cache-Control", "no-store"),
    ]

    func mountAssets(on router: inout Router) {
        let assets: [(String, String, String)] = [
            ("/console", "text/html; charset=utf-8", ConsolePage.html),
            ("/console/app.css", "text/css; charset=utf-8", ConsoleStyle.css),
            ("/console/app.js", "text/javascript; charset=utf-8", ConsoleScript.app),
            ("/console/sources.js", "text/javascript; charset=utf-8", ConsoleSourcesScript.sources),
            ("/console/flag-editor.js", "text/javascript; charset=utf-8", ConsoleFlagEditorScript.editor),
            ("/console/flags.js", "text/javascript; charset=utf-8", ConsoleFlagsScript.flags),
            ("/console/messenger.js", "text/javascript; charset=utf-8", ConsoleMessengerScript.messenger),
        ]
        for (path, contentType, text) in assets {
            let body = Array(text.utf8)
            router.add("GET", path) { _ in
                HTTPResponse(status: 200, headers: [("Content-Type", contentType)] + Self.pageHeaders, body: body)
            }
        }
    }
}
