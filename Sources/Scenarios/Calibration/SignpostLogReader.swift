/// Reads `log show --style ndjson` output (one JSON object per line) and pairs signpost
/// `begin` and `end` events into intervals: the same `signpostID`, `signpostName` and
/// `processID`. Durations come from the `timestamp` strings
/// ("2024-05-01 10:11:12.345678-0700"), so they have microsecond resolution.
///
/// Lines that are not signpost events, and `event` signposts (points, not intervals), are
/// skipped; an `end` without its `begin`, and a `begin` never ended, are left out and
/// counted in the reading's remarks. A line that is not a JSON object, a signpost event
/// with a missing or malformed field, or an interval longer than `ValueLimits` allows (about
/// 104 days) is an error with its line and column.
public enum SignpostLogReader {
    /// The lines `log show` prints about its own filtering, which are not JSON.
    static let preambles = ["Filtering the log data", "Skipping info and debug messages", "Timestamp "]

    /// Reads `path`.
    public static func read(path: String) throws(InputError) -> CostReading {
        let lines = try LineReader(path: path)
        var collector = SeriesCollector()
        var open: [String: (micros: Int64, line: Int)] = [:]
        var unmatchedEnds = 0
        var skipped = 0
        var reopened = 0
        while let (number, bytes) = try lines.nextLine() {
            let text = String(decoding: bytes, as: UTF8.self)
            if text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            // `log show` may print what it filters on before the events.
            if Self.preambles.contains(where: { text.hasPrefix($0) }) { skipped += 1; continue }
            func fail(_ message: String, _ column: Int?) -> InputError {
                InputError(.invalidContent, file: path, line: number, column: column, message: message)
            }
            let object: ConfigValue
            do {
                object = try JSON5Parser.parse(text)
            } catch {
                throw fail("not a JSON object: \(error.message)", error.column)
            }
            guard case .object = object.kind else { throw fail("expected a JSON object, found \(object.typeName)", object.column) }
            guard case .string("signpostEvent")? = object["eventType"]?.kind else { skipped += 1; continue }
            func string(_ key: String) throws(InputError) -> (String, column: Int) {
                guard let value = object[key] else { throw fail("signpost event without \"\(key)\"", nil) }
                guard case .string(let s) = value.kind else {
                    throw fail("\"\(key)\" must be a string, found \(value.typeName)", value.column)
                }
                return (s, value.column)
            }
            let (type, typeColumn) = try string("signpostType")
            guard type == "begin" || type == "end" else {
                if type == "event" { skipped += 1; continue }
                throw fail("\"signpostType\" must be begin, end or event, found \"\(type)\"", typeColumn)
            }
            let (name, _) = try string("signpostName")
            guard let idValue = object["signpostID"] ?? object["signpostIdentifier"] else {
                throw fail("signpost event without \"signpostID\"", nil)
            }
            // The identifier is a 64-bit integer that a double would round: compare its text.
            let id = rawToken(text, column: idValue.column)
            guard case .number = idValue.kind, !id.isEmpty else {
                throw fail("\"signpostID\" must be an integer, found \(idValue.typeName)", idValue.column)
            }
            let process = object["processID"].map { rawToken(text, column: $0.column) } ?? ""
            let (stamp, stampColumn) = try string("timestamp")
            guard let micros = microseconds(stamp) else {
                throw fail("\"timestamp\" must look like 2024-05-01 10:11:12.345678-0700, found \"\(stamp)\"", stampColumn)
            }
            let key = "\(process)/\(id)/\(name)"
            if type == "begin" {
                if open[key] != nil { reopened += 1 }
                open[key] = (micros, number)
            } else if let begin = open.removeValue(forKey: key) {
                guard micros >= begin.micros else {
                    throw fail("signpost \(id) \"\(name)\" ends before it begins (line \(begin.line))", stampColumn)
                }
                // Four-digit years keep the difference far from overflow; in nanoseconds it might not be.
                guard micros - begin.micros <= ValueLimits.durationNanosMax / 1000 else {
                    throw fail("signpost \(id) \"\(name)\" lasts \(micros - begin.micros) µs since line \(begin.line), out of range (\(ValueLimits.durationLimitText))", stampColumn)
                }
                collector.add(name, ms: Double(micros - begin.micros) / 1000)
            } else {
                unmatchedEnds += 1
            }
        }
        var remarks: [String] = []
        if !open.isEmpty { remarks.append("\(open.count) signpost interval(s) begun but never ended, left out") }
        if unmatchedEnds > 0 { remarks.append("\(unmatchedEnds) signpost end(s) without a begin, left out") }
        if reopened > 0 { remarks.append("\(reopened) signpost begin(s) repeated before their end; the later begin counts") }
        if skipped > 0 { remarks.append("\(skipped) line(s) that are not signpost intervals skipped") }
        return CostReading(file: path, format: .unifiedLog, series: collector.series(file: path, format: .unifiedLog),
                           remarks: remarks)
    }

    /// The JSON number token starting at the 1-based scalar `column` of `line`.
    static func rawToken(_ line: String, column: Int) -> String {
        let scalars = Array(line.unicodeScalars)
        guard column >= 1, column <= scalars.count else { return "" }
        var token = ""
        for scalar in scalars[(column - 1)...] {
            guard scalar.properties.numericType != nil || scalar == "-" || scalar == "+" || scalar == "." || scalar == "e" || scalar == "E" else { break }
            token.unicodeScalars.append(scalar)
        }
        return token
    }

    /// Microseconds since 1970 of a `log show` timestamp: `YYYY-MM-DD HH:MM:SS[.ffffff]±HHMM`
    /// (the fraction may have 1 to 9 digits; beyond 6 they are dropped).
    static func microseconds(_ stamp: String) -> Int64? {
        let bytes = Array(stamp.utf8)
        var i = 0
        func number(_ digits: Int) -> Int64? {
            guard i + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<digits {
                let b = bytes[i]
                guard b >= 48 && b <= 57 else { return nil }
                value = value * 10 + Int64(b - 48)
                i += 1
            }
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              expect(32) || expect(84), let hour = number(2), expect(58), let minute = number(2), expect(58),
              let second = number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction: Int64 = 0
        if expect(46) {
            var digits = 0
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                if digits < 6 { fraction = fraction * 10 + Int64(bytes[i] - 48) }
                digits += 1
                i += 1
            }
            guard digits >= 1 && digits <= 9 else { return nil }
            if digits < 6 { for _ in digits..<6 { fraction *= 10 } }
        }
        var offsetSeconds: Int64 = 0
        if i < bytes.count {
            if bytes[i] == 90 { i += 1 } else {
                let sign: Int64 = bytes[i] == 43 ? 1 : (bytes[i] == 45 ? -1 : 0)
                guard sign != 0 else { return nil }
                i += 1
                guard let hours = number(2) else { return nil }
                _ = expect(58)
                guard let minutes = number(2) else { return nil }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard i == bytes.count else { return nil }
        // Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1_000_000 + fraction
    }
}
