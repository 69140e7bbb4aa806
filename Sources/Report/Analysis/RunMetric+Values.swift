import Scenarios
import Sim

extension RunMetric {
    /// The metric's value for one run, computed from its records as they stream to the
    /// report — the very figure the metric's `sql` gives over the run's rows, to the last
    /// bit, but with no rows needed (a summary report keeps none) and no SQL sort.
    /// `ReportTests` checks the two against each other on every bundled scenario.
    /// - Returns: nil where the query gives no row for the run (no requests, no words…).
    public func value(for result: RunResult, budgets: [Budget]) -> Double? {
        let o = result.observations
        let s = result.summary
        switch name {
        case Self.keyLatencyMeanMs.name:
            return Self.meanMs(o.keys.lazy.map(\.latency.nanoseconds))
        case Self.keyLatencyP99Ms.name:
            return Self.nearestRankMs(99, o.keys.map(\.latency.nanoseconds))
        case Self.keyShareOverBudget.name:
            guard let limit = budgets.first(where: { $0.metric == .key })?.limit, !o.keys.isEmpty else { return nil }
            return Self.share(o.keys.lazy.map { $0.latency > limit })
        case Self.suggestionLatencyP95Ms.name:
            return Self.nearestRankMs(95, o.suggestions.filter { $0.outcome == .shown }.map(\.latency.nanoseconds))
        case Self.requestsPer100Words.name:
            return s.words > 0 ? 100.0 * Double(s.requests) / Double(s.words) : nil
        case Self.charactersSentPer100Words.name:
            return s.words > 0 ? 100.0 * Double(o.requests.reduce(0) { $0 + $1.characters }) / Double(s.words) : nil
        case Self.requestRoundTripMeanMs.name:
            return Self.meanMs(o.requests.lazy.map(\.roundTrip.nanoseconds))
        case Self.underlineVerdictMeanMs.name:
            return Self.meanMs(o.underlines.lazy.filter { $0.origin == .local }.compactMap { u -> Int64? in
                guard let verdict = u.confirmed ?? (u.outcome == .retracted ? u.end : nil) else { return nil }
                return (verdict - u.wordFinished).nanoseconds
            })
        case Self.flickersPer100Words.name:
            return s.words > 0 ? 100.0 * Double(o.underlines.count(where: \.flicker)) / Double(s.words) : nil
        case Self.corruptingFixes.name:
            return Double(o.fixes.count(where: \.corrupted))
        case Self.dictationStopToTextMeanMs.name:
            return Self.meanMs(o.dictations.lazy.map(\.stopToText.nanoseconds))
        case Self.micOnPerDictatedSecond.name:
            let dictated = o.dictationSessions.reduce(Int64(0)) { $0 + $1.dictated.nanoseconds }
            guard dictated > 0 else { return nil }
            return 1.0 * Double(o.dictationSessions.reduce(Int64(0)) { $0 + $1.micOn.nanoseconds }) / Double(dictated)
        case Self.keystrokeSavings.name, Self.keystrokeSavingsInTime.name:
            guard let quality = s.typingQuality, !quality.words.isEmpty, s.edits > 0 else { return nil }
            let saved = name == Self.keystrokeSavings.name ? quality.keystrokesSaved : quality.keystrokesSavedInTime
            return 1.0 * Double(saved) / Double(s.edits)
        case Self.wordPredictionRate.name:
            guard let quality = s.typingQuality, !quality.words.isEmpty else { return nil }
            return Self.share(quality.words.lazy.map { $0.firstInBarPrefix != nil })
        case Self.touchTypoRatePlain.name:
            return o.touches.isEmpty ? nil : Self.share(o.touches.lazy.map(\.plainTypo))
        case Self.touchTypoRateShifted.name:
            return o.touches.isEmpty ? nil : Self.share(o.touches.lazy.map(\.shiftedTypo))
        case Self.touchPredictionsLateShare.name:
            return o.touches.isEmpty ? nil : 1.0 - Self.share(o.touches.lazy.map(\.ready))
        case Self.localRetractionShare.name:
            let local = o.underlines.filter { $0.origin == .local }
            return local.isEmpty ? nil : Self.share(local.lazy.map { $0.outcome == .retracted })
        case Self.underlinePrecision.name:
            let shown = o.underlines.filter { $0.shown != nil }
            return shown.isEmpty ? nil : Self.share(shown.lazy.map(\.trueError))
        case Self.underlineRecall.name:
            let errorWords = s.counters.errorWordsFinished
            guard errorWords > 0 else { return nil }
            return min(1.0, 1.0 * Double(o.underlines.count { $0.trueError && $0.shown != nil }) / Double(errorWords))
        case Self.falseUnderlineSecondsPer100Words.name:
            guard s.words > 0 else { return nil }
            let visible = o.underlines.reduce(Int64(0)) { sum, u in
                guard u.origin == .local, !u.trueError, let shown = u.shown else { return sum }
                return sum + (u.end - shown).nanoseconds
            }
            return 100.0 * Double(visible) / 1e9 / Double(s.words)
        case Self.kills.name:
            return Double(o.extensionRecords.kills.count)
        case Self.corruptLoads.name:
            return Double(o.extensionRecords.corruptLoads)
        case Self.silentlyWrongSuggestions.name:
            return Double(o.extensionRecords.totals.silentlyWrongSuggestions)
        case Self.tokenRejectedRequests.name:
            return Double(o.extensionRecords.tokenRejections.count)
        case Self.tokenAddedLatencyMs.name:
            let added = o.extensionRecords.tokenRejections.reduce(Int64(0)) { $0 + ($1.reason == .expired ? $1.added.nanoseconds : 0) }
            return Double(added) / 1e6
        default:
            preconditionFailure("metric \(name) has no in-process value")
        }
    }

    /// `AVG(x) / 1e6` as SQLite 3.40 computes it: a sum of doubles in row order over the count.
    private static func meanMs<S: Sequence<Int64>>(_ values: S) -> Double? {
        var sum = 0.0
        var count = 0
        for value in values {
            sum += Double(value)
            count += 1
        }
        return count == 0 ? nil : sum / Double(count) / 1e6
    }

    /// `AVG(condition)`: the share of true values (the caller ensures there is one value).
    private static func share<S: Sequence<Bool>>(_ values: S) -> Double {
        var count = 0
        var yes = 0
        for value in values {
            count += 1
            if value { yes += 1 }
        }
        return Double(yes) / Double(count)
    }

    /// The nearest-rank percentile of `nearestRankSQL`: rank `(p·n + 99) / 100` of the sorted values.
    private static func nearestRankMs(_ percent: Int, _ values: [Int64]) -> Double? {
        guard !values.isEmpty else { return nil }
        var values = values
        return Double(kthSmallest(&values, (percent * values.count + 99) / 100 - 1)) / 1e6
    }

    /// The value of 0-based rank `k` in ascending order (Hoare's selection, median-of-three
    /// pivots; `values` is reordered): what sorting would put at `k`, in linear expected
    /// time. A sort finishes the job should the partitions keep coming out lopsided.
    static func kthSmallest(_ values: inout [Int64], _ k: Int) -> Int64 {
        precondition(values.indices.contains(k), "rank \(k) of \(values.count) values")
        var low = 0
        var high = values.count - 1
        var budget = 2 * (Int.bitWidth - values.count.leadingZeroBitCount) + 8
        while low < high {
            budget -= 1
            if budget == 0 {
                values[low...high].sort()
                return values[k]
            }
            let middle = low + (high - low) / 2
            // Median of three as the pivot value.
            let (a, b, c) = (values[low], values[middle], values[high])
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // values[low...j] ≤ pivot ≤ values[i...high], and values[j+1..<i] == pivot.
            if k <= j {
                high = j
            } else if k >= i {
                low = i
            } else {
                return values[k]
            }
        }
        return values[k]
    }
}
