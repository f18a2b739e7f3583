import CTerminal

/// What a crash does to the terminal: it is restored first, from the signal handler (async-signal-safe
/// writes and `tcsetattr` only), then Swift's backtracer prints its report (never waiting for a key:
/// see `termmap`'s start), or in kiosk mode one line and nothing more.
public enum CrashHandling {
    /// True when Swift's runtime handles crashes (a build linked with the shared runtime; a static
    /// binary has no backtracer): checked before `install`.
    public static var runtimeBacktracerIsActive: Bool { termmap_crash_handler_installed_before() != 0 }

    /// Installs the handlers; `quietly` (kiosk mode): one line, no backtrace.
    public static func install(quietly: Bool) { termmap_install_crash_handlers(quietly ? 1 : 0) }
}
