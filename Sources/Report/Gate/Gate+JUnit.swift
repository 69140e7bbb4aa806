import Foundation
import Scenarios

extension Gate {
    /// The gate as JUnit XML: one `testsuites` with one `testsuite`, one `testcase` per rule
    /// and budget, a `failure` carrying the measured figures for each check that failed, and
    /// `skipped` for a budget with no samples in the candidate's runs (nothing was measured
    /// against it, so it neither passed nor failed). CI systems (GitHub Actions test reporters,
    /// GitLab `artifacts:reports:junit`, Jenkins) show it as a test run; it validates against
    /// the Jenkins/Surefire `junit-10.xsd`. With `run`, the suite carries its `timestamp`,
    /// `hostname` and `time` (the gate's wall-clock seconds); without, the same gate gives the
    /// same file.
    public func junit(seed: UInt64, replications: Int, run: JUnitRun? = nil) -> String {
        let failed = failures.count
        let skipped = checks.filter(Self.isSkipped).count
        let suite = "keysim gate: \(scenarioName): \(candidate) vs \(baseline)"
        let time = run.map { " time=\"\($0.time)\"" } ?? ""
        let when = run.map { " timestamp=\(HTMLEscaper.xmlAttribute($0.timestamp)) hostname=\(HTMLEscaper.xmlAttribute($0.hostname))" } ?? ""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"keysim gate\" tests=\"\(checks.count)\" failures=\"\(failed)\" errors=\"0\"\(time)>\n"
        xml += "  <testsuite name=\(HTMLEscaper.xmlAttribute(suite)) tests=\"\(checks.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(skipped)\"\(time)\(when)>\n"
        xml += "    <properties>\n"
        for (name, value) in [("scenario", scenarioName), ("baseline", baseline), ("candidate", candidate),
                              ("seed", "\(seed)"), ("replications", "\(replications)"), ("pairs", "\(pairs)")] {
            xml += "      <property name=\(HTMLEscaper.xmlAttribute(name)) value=\(HTMLEscaper.xmlAttribute(value))/>\n"
        }
        xml += "    </properties>\n"
        for check in checks {
            let opening = "    <testcase name=\(HTMLEscaper.xmlAttribute(check.name)) classname=\(HTMLEscaper.xmlAttribute("keysim.gate.\(check.kind.rawValue)"))"
            if Self.isSkipped(check) {
                xml += opening + ">\n      <skipped message=\(HTMLEscaper.xmlAttribute(check.detail))/>\n    </testcase>\n"
                continue
            }
            if check.passed {
                xml += opening + ">\n      <system-out>\(HTMLEscaper.xmlText(check.detail))</system-out>\n    </testcase>\n"
                continue
            }
            let type = check.kind == .budget ? "budget" : "rule"
            xml += opening + ">\n"
            xml += "      <failure message=\(HTMLEscaper.xmlAttribute(check.detail)) type=\"\(type)\">\(HTMLEscaper.xmlText(Self.figures(check)))</failure>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// A budget with no samples in the candidate's runs: nothing was measured against it.
    /// (A rule whose metric was measured in no pair fails instead: a gate must not pass on a
    /// metric it never saw.)
    static func isSkipped(_ check: GateCheck) -> Bool {
        check.kind == .budget && check.count == 0
    }

    /// The measured figures of a check, one `name: value` per line.
    static func figures(_ check: GateCheck) -> String {
        var lines = ["metric: \(check.metric)"]
        func add(_ name: String, _ value: Double?) {
            if let value { lines.append("\(name): \(JSONWriter.number(value))") }
        }
        add("measured", check.measured)
        add("limit", check.limit)
        add("excess", check.excess)
        add("baseline", check.baseline)
        add("candidate", check.candidate)
        add("interval low", check.interval?.lowerBound)
        add("interval high", check.interval?.upperBound)
        add("confidence", check.confidence)
        lines.append("\(check.kind == .budget ? "samples" : "pairs"): \(check.count)")
        lines.append("unit: \(check.unit)")
        return lines.joined(separator: "\n")
    }
}
