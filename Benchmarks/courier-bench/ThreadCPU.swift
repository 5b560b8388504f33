import Foundation

/// CPU time this process's threads have used, by thread name (`/proc/self/task/*/stat`), so a
/// benchmark running a client and a server in one process can say how their costs split. A
/// thread that ends between two readings takes its time with it; the engine's and the
/// collector's threads live for the whole run.
struct ThreadCPU {
    /// Seconds of CPU (user and system) per thread id, with the thread's name.
    let threads: [Int: (name: String, seconds: Double)]

    /// Reads every thread's time now.
    static func now() -> ThreadCPU {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var threads: [Int: (name: String, seconds: Double)] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            guard let id = Int(task),
                let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // The name is between the first "(" and the last ")"; the fields after it are
            // space-separated, state first: utime and stime are the 12th and 13th.
            let name = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            threads[id] = (String(name), (user + system) / ticks)
        }
        return ThreadCPU(threads: threads)
    }

    /// The CPU seconds used since `earlier`, summed by `group(name)`.
    func since(_ earlier: ThreadCPU, group: (String) -> String) -> [String: Double] {
        var totals: [String: Double] = [:]
        for (id, thread) in threads {
            let before = earlier.threads[id]?.seconds ?? 0
            totals[group(thread.name), default: 0] += max(0, thread.seconds - before)
        }
        return totals
    }
}
