import Foundation

extension TypistFitQuality {
    /// Whether a resynthesis can be told from its recording: the two-sample
    /// Kolmogorov–Smirnov test of their within-word intervals, the share of intervals over
    /// 400 ms, and how strongly each interval follows the one before.
    public struct Fidelity: Sendable, Equatable {
        /// A two-sample KS test at 95 %.
        public struct Test: Sendable, Equatable {
            /// The KS distance.
            public var distance: Double
            /// Its 95 % critical value for the samples' sizes.
            public var critical: Double
            /// The sizes: the recording's, the resynthesis'.
            public var n: Int, m: Int
            /// Whether the test passes: the distance is within its critical value.
            public var passes: Bool { distance <= critical }
        }

        /// A figure of the recording beside the resynthesis'.
        public struct Pair: Sendable, Equatable {
            /// The recording's.
            public var recording: Double
            /// The resynthesis'.
            public var resynthesis: Double
        }

        /// The KS test of the within-word intervals; `nil` when either side has none.
        public var withinWordTest: Test?
        /// The share of within-word intervals over 400 ms.
        public var withinWordOver400: Pair?
        /// The share of intervals within messages (every context but `messageStart`) over 400 ms.
        public var withinMessagesOver400: Pair?
        /// Spearman's rank correlation of consecutive within-word intervals (two edits in a
        /// row, both within a word); `nil` below 10 pairs a side.
        public var lagOneCorrelation: Pair?

        /// Whether the KS test passes; `nil` without one.
        public var passes: Bool? { withinWordTest?.passes }

        /// The fidelity of `resynthesised` to `recorded`.
        init(recorded: TypistFitter, resynthesised: TypistFitter) {
            let a = recorded.samples(.withinWord), b = resynthesised.samples(.withinWord)
            if let distance = KolmogorovSmirnov.distance(a, b) {
                withinWordTest = Test(distance: distance, critical: KolmogorovSmirnov.criticalValue(n: a.count, m: b.count),
                                      n: a.count, m: b.count)
            }
            let limit: Int64 = 400_000_000
            func share(_ values: [Int64]) -> Double? {
                values.isEmpty ? nil : Double(values.filter { $0 > limit }.count) / Double(values.count)
            }
            if let x = share(a), let y = share(b) { withinWordOver400 = Pair(recording: x, resynthesis: y) }
            let contexts = TypistProfile.Context.allCases.filter { $0 != .messageStart }
            if let x = share(contexts.flatMap { recorded.samples($0) }), let y = share(contexts.flatMap { resynthesised.samples($0) }) {
                withinMessagesOver400 = Pair(recording: x, resynthesis: y)
            }
            if let x = recorded.lagOneRankCorrelation(.withinWord), let y = resynthesised.lagOneRankCorrelation(.withinWord) {
                lagOneCorrelation = Pair(recording: x, resynthesis: y)
            }
        }

        /// The lines `keysim trace fit` prints under its table.
        public var lines: [String] {
            var lines: [String] = []
            if let test = withinWordTest {
                let verdict = test.passes ? "pass (cannot be told apart)" : "FAIL (the resynthesis differs)"
                lines.append("  KS test at 95 %, within-word intervals: distance \(NumberText.fixed(test.distance, 4)), critical \(NumberText.fixed(test.critical, 4)) (n \(test.n), m \(test.m)): \(verdict)")
            } else {
                lines.append("  KS test at 95 %, within-word intervals: -")
            }
            func percent(_ pair: Pair?) -> String {
                pair.map { "\(NumberText.fixed($0.recording * 100, 2)) % recording, \(NumberText.fixed($0.resynthesis * 100, 2)) % resynthesis" } ?? "-"
            }
            lines.append("  intervals over 400 ms, within words: \(percent(withinWordOver400))")
            lines.append("  intervals over 400 ms, within messages: \(percent(withinMessagesOver400))")
            let lag = lagOneCorrelation.map { "\(NumberText.fixed($0.recording, 3)) recording, \(NumberText.fixed($0.resynthesis, 3)) resynthesis" } ?? "-"
            lines.append("  lag-1 rank correlation, within-word intervals: \(lag)")
            return lines
        }
    }
}

extension TypistFitter {
    /// Spearman's rank correlation of consecutive intervals of `context`: pairs of edits in a
    /// row whose intervals are both of `context`; `nil` below 10 pairs.
    func lagOneRankCorrelation(_ context: TypistProfile.Context) -> Double? {
        var pairs: [(Int64, Int64)] = []
        for record in records where record.context == context {
            guard let previous = record.previous, records[previous].context == context else { continue }
            pairs.append((records[previous].nanos, record.nanos))
        }
        guard pairs.count >= 10 else { return nil }
        let x = Self.ranks(pairs.map(\.0)), y = Self.ranks(pairs.map(\.1))
        let n = Double(pairs.count)
        let meanX = x.reduce(0, +) / n, meanY = y.reduce(0, +) / n
        var cross = 0.0, xx = 0.0, yy = 0.0
        for (a, b) in zip(x, y) {
            cross += (a - meanX) * (b - meanY)
            xx += (a - meanX) * (a - meanX)
            yy += (b - meanY) * (b - meanY)
        }
        return xx > 0 && yy > 0 ? cross / (xx * yy).squareRoot() : nil
    }

    /// The ranks of `values`, 1-based, ties given the mean of their ranks.
    static func ranks(_ values: [Int64]) -> [Double] {
        let order = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end) / 2 + 1
            for k in start...end { ranks[order[k]] = rank }
            start = end + 1
        }
        return ranks
    }
}
