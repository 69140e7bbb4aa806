import Scenarios
import Sim

extension BatchSummary {
    /// Pools a batch's runs one at a time, as they stream to the report, so that a batch of
    /// thousands of replications never holds more than one run's records at once. Only the
    /// latencies stay, a byte or two each (`LatencyPool`), for the exact pooled percentiles.
    public struct Builder: Sendable {
        private let budgets: [Budget]
        private var pools = [LatencyPool](repeating: LatencyPool(), count: LatencyMetric.allCases.count)
        private var over = [Int](repeating: 0, count: LatencyMetric.allCases.count)
        private var counts = Counts()
        private var runs = 0
        private var typing = TypingFigures.Sum()
        private var extensionSummary = ExtensionSummary()

        private let wordsPerUserDay: Double

        /// A builder for a batch under `budgets`, whose users type `wordsPerUserDay` words a
        /// day (the scenario's `cloud.pricing.wordsPerUserDay`).
        public init(budgets: [Budget], wordsPerUserDay: Double = PriceTable.defaultWordsPerUserDay) {
            self.budgets = budgets
            self.wordsPerUserDay = wordsPerUserDay
        }

        /// Adds one run.
        public mutating func add(_ result: RunResult) {
            add(result, sortedLatencies: Self.sortedLatencies(of: result))
        }

        /// The run's latencies of each metric (`LatencyMetric.allCases` order), sorted: what
        /// `add(_:sortedLatencies:)` takes, computed on the run's worker thread.
        public static func sortedLatencies(of result: RunResult) -> [[Int64]] {
            LatencyMetric.allCases.map { metric in
                var values: [Int64] = []
                MetricSamples.forEachLatency(metric, in: result.observations) { values.append($0.nanoseconds) }
                return RadixSort.sorted(values)
            }
        }

        /// Adds one run whose sorted latencies are already known.
        public mutating func add(_ result: RunResult, sortedLatencies: [[Int64]]) {
            precondition(sortedLatencies.count == pools.count, "one latency list per metric")
            runs += 1
            extensionSummary.add(result)
            typing.add(result)
            let o = result.observations
            for (m, metric) in LatencyMetric.allCases.enumerated() {
                let sorted = sortedLatencies[m]
                pools[m].add(sorted: sorted)
                if let limit = budgets.first(where: { $0.metric == metric })?.limit.nanoseconds {
                    // The first latency over the limit, by binary search.
                    var low = 0, high = sorted.count
                    while low < high {
                        let middle = (low + high) / 2
                        if sorted[middle] > limit { high = middle } else { low = middle + 1 }
                    }
                    over[m] += sorted.count - low
                }
            }
            var c = counts
            c.keys += o.keys.count
            for s in o.suggestions {
                if s.outcome == .shown { c.suggestionsShown += 1 } else if s.outcome == .superseded { c.suggestionsSuperseded += 1 }
                if s.tooLate { c.suggestionsTooLate += 1 }
            }
            for u in o.underlines {
                if let shown = u.shown {
                    c.underlinesShown += 1
                    if u.trueError {
                        c.shownOnErrors += 1
                        c.errorUnderlineDelaysMs.append((shown - u.wordFinished).milliseconds)
                    } else if u.origin == .local {
                        c.falseUnderlineSeconds += (u.end - shown).milliseconds / 1000
                    }
                }
                if u.flicker { c.flickers += 1 }
                if u.outcome == .dropped { c.dropped += 1 }
                guard u.origin == .local else { c.cloudFindings += 1; continue }
                c.localUnderlines += 1
                if u.trueError {
                    c.localOnErrors += 1
                    if u.timeToVerdict != nil { c.localOnErrorsWithVerdict += 1 }
                }
                if u.confirmed != nil { c.confirmed += 1 }
                else if u.outcome == .retracted { c.retracted += 1 }
                else if u.outcome == .open { c.openWithoutVerdict += 1 }
                else if u.outcome != .killed { c.editedOrDropped += 1 }
            }
            c.errorWords += result.summary.counters.errorWordsFinished
            for r in o.requests {
                c.requests += 1
                if r.outcome == .failed { c.requestsFailed += 1 }
                if r.stale { c.staleAnswers += 1 }
                if r.stale && r.lostWords > 0 { c.staleLostWords += 1 }
                c.timeouts += r.timeouts
                c.retries += r.attempts - 1
                c.charactersSent += r.characters
                c.inputTokens += r.inputTokens
                c.cachedTokens += r.cachedTokens
                c.outputTokens += r.outputTokens
                c.costPicoUSD += r.costPicoUSD
                if r.rejections > 0 { c.rejectedRequests += 1 }
                c.limitWaitSeconds += r.limitWait.milliseconds / 1000
            }
            for f in o.fixes {
                if f.applied { c.fixesApplied += 1 } else { c.fixesDropped += 1 }
                if f.corrupted { c.corruptingFixes += 1 }
            }
            c.words += result.summary.words
            c.touches.add(o.touches)
            for d in o.dictations {
                c.dictations += 1
                if d.coldStart { c.coldStarts += 1 }
                if d.isClipped { c.clippedStarts += 1; c.clippedMs += d.clipped.milliseconds }
                c.speechLostMs += d.speechLostToCap.milliseconds
            }
            for session in o.dictationSessions {
                c.micOnSeconds += session.micOn.milliseconds / 1000
                c.dictatedSeconds += session.dictated.milliseconds / 1000
                c.suspensions += session.suspensions
            }
            counts = c
        }

        /// The summary of every run added.
        public func finish() -> BatchSummary {
            let latencies = LatencyMetric.allCases.enumerated().map { m, metric in
                let pool = pools[m]
                let budget = budgets.first { $0.metric == metric }
                return LatencyRow(metric: metric, summary: pool.summary(), budget: budget,
                                  shareOverBudget: pool.count == 0 ? 0 : Double(budget == nil ? 0 : over[m]) / Double(pool.count))
            }
            return BatchSummary(latencies: latencies, counts: counts, runs: runs, typing: typing.figures,
                                extensionSummary: extensionSummary, wordsPerUserDay: wordsPerUserDay)
        }
    }
}
