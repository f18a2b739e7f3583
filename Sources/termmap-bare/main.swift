// termmap-bare: the yardstick for termmap's start-up, a Swift program that imports Foundation and
// prints one line (termmap-bench times termmap against it, pair by pair).
import Foundation

print("bare \(ProcessInfo.processInfo.processIdentifier > 0)")
