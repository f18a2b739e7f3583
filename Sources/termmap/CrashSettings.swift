import Glibc
import Support
import TerminalUI

/// Swift's backtracer reads `SWIFT_BACKTRACE` once, when the program starts, and by default on a
/// terminal it waits for a key with its own prompt (`>>>`), holding a raw terminal: termmap starts
/// itself again, once, with `interactive=no` added (the person's other settings kept), and in kiosk
/// mode with `enable=no` (no backtrace for a demo's visitor). Only where the backtracer runs (a build
/// with the shared runtime: a static binary has none) and would ask (its `tty` default asks when
/// standard input and output are both terminals; a script's termmap starts once). Then the crash
/// handlers go in.
enum CrashSettings {
    /// The value `SWIFT_BACKTRACE` must have, or nil when the present one will do.
    static func wanted(present: String?, kiosk: Bool) -> String? {
        let settings = (present ?? "").split(separator: ",").map(\.trimmedOfWhitespace)
        if kiosk { return settings.last(where: { $0.hasPrefix("enable=") }) == "enable=no" ? nil : "enable=no" }
        if settings.last(where: { $0.hasPrefix("interactive=") }) == "interactive=no" { return nil }
        return settings.isEmpty ? "interactive=no" : (settings + ["interactive=no"]).joined(separator: ",")
    }

    /// Starts the program again with the setting when the backtracer needs it; then installs the crash
    /// handlers. Returns only in the process that goes on.
    static func prepare(_ arguments: [String]) {
        let kiosk = arguments.contains("--kiosk")
        if CrashHandling.runtimeBacktracerIsActive, kiosk || (isatty(0) == 1 && isatty(1) == 1),
            let value = wanted(present: getenv("SWIFT_BACKTRACE").map { String(cString: $0) }, kiosk: kiosk)
        {
            setenv("SWIFT_BACKTRACE", value, 1)
            let argv = arguments.map { strdup($0) } + [nil]
            execv("/proc/self/exe", argv)
            // Not started again (no /proc): go on as this process, with the backtracer as it is.
        }
        CrashHandling.install(quietly: kiosk)
    }
}
