import Scenarios
import Sim

/// The headline figures of a batch of runs, pooled over replications: what `keysim run` prints.
public struct BatchSummary: Sendable, Equatable {
    /// One row of the latency table.
    public struct LatencyRow: Sendable, Equatable {
        /// The metric.
        public var metric: LatencyMetric
        /// Its samples, milliseconds.
        public var summary: SampleSummary
        /// Its budget, if any.
        public var budget: Budget?
        /// Share of samples over the budget.
        public var shareOverBudget: Double
        /// Whether the share is within the allowed share (true without a budget).
        public var withinBudget: Bool { budget.map { shareOverBudget <= $0.allowedShare } ?? true }
    }

    /// Latency rows, one per metric, in `LatencyMetric` order.
    public var latencies: [LatencyRow]
    /// Counts pooled over all runs.
    public var counts: Counts
    /// Number of runs.
    public var runs: Int
    /// The suggestion bar's quality, when the runs measured it (a dictionary was configured).
    public var typing: TypingFigures?
    /// Kills, language files and device-token rejections.
    public var extensionSummary: ExtensionSummary
    /// Words a user types in a day, for the cost per user-day.
    public var wordsPerUserDay: Double

    /// Counts pooled over all runs.
    public struct Counts: Sendable, Equatable {
        public var keys = 0
        public var suggestionsShown = 0
        public var suggestionsSuperseded = 0
        public var suggestionsTooLate = 0
        /// Underlines shown, of either origin.
        public var underlinesShown = 0
        /// Local underlines (the local checker's), shown or not yet.
        public var localUnderlines = 0
        /// Local underlines the cloud confirmed.
        public var confirmed = 0
        /// Local underlines the cloud retracted.
        public var retracted = 0
        /// Local underlines whose word the user edited, or that were dropped or closed with their field, before any verdict.
        public var editedOrDropped = 0
        /// Local underlines still open without a verdict at the end.
        public var openWithoutVerdict = 0
        /// Local underlines on real errors.
        public var localOnErrors = 0
        /// Local underlines on real errors the cloud confirmed or retracted while they showed.
        public var localOnErrorsWithVerdict = 0
        public var flickers = 0
        public var dropped = 0
        /// Underlines the cloud found on its own.
        public var cloudFindings = 0
        /// Shown underlines on real errors.
        public var shownOnErrors = 0
        /// Finished words that were errors.
        public var errorWords = 0
        /// Seconds that shown local underlines on correct words stayed visible: what speculation costs the user.
        public var falseUnderlineSeconds = 0.0
        /// Word finished to underline shown, for shown underlines on real errors, milliseconds.
        public var errorUnderlineDelaysMs: [Double] = []
        /// Answers that arrived after the text changed, and how many of them lost words.
        public var staleLostWords = 0
        public var requests = 0
        public var requestsFailed = 0
        public var staleAnswers = 0
        public var timeouts = 0
        public var retries = 0
        public var charactersSent = 0
        /// Tokens the cloud billed: input (cached ones included), cached input, output.
        public var inputTokens = 0
        public var cachedTokens = 0
        public var outputTokens = 0
        /// What the requests cost, picodollars (exact).
        public var costPicoUSD: Int64 = 0
        /// Requests the backend refused at least once, and the time refusals added.
        public var rejectedRequests = 0
        public var limitWaitSeconds = 0.0
        public var words = 0
        public var fixesApplied = 0
        public var fixesDropped = 0
        public var corruptingFixes = 0
        public var dictations = 0
        public var coldStarts = 0
        public var clippedStarts = 0
        public var clippedMs = 0.0
        public var speechLostMs = 0.0
        public var micOnSeconds = 0.0
        public var dictatedSeconds = 0.0
        public var suspensions = 0
        /// The touch model's figures.
        public var touches = TouchCounts()
    }

    /// Pools the observations of `results` under `budgets`, for users who type
    /// `wordsPerUserDay` words a day.
    public init(results: [RunResult], budgets: [Budget], wordsPerUserDay: Double = PriceTable.defaultWordsPerUserDay) {
        var builder = Builder(budgets: budgets, wordsPerUserDay: wordsPerUserDay)
        for result in results { builder.add(result) }
        self = builder.finish()
    }

    /// The pooled figures put together by a builder.
    init(latencies: [LatencyRow], counts: Counts, runs: Int, typing: TypingFigures?, extensionSummary: ExtensionSummary,
         wordsPerUserDay: Double) {
        self.wordsPerUserDay = wordsPerUserDay
        self.latencies = latencies
        self.counts = counts
        self.runs = runs
        self.typing = typing
        self.extensionSummary = extensionSummary
    }

    /// The median of `values` as "N ms" or "N.N s", or "-".
    private func medianMs(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "-" }
        let sorted = values.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return median < 1000 ? TextTable.fixed(median, 0) + " ms" : TextTable.fixed(median / 1000, 1) + " s"
    }

    /// The `cost` line: tokens per 100 words, dollars per 1,000 words and per user-day, and
    /// the refusals; empty when no request was sent.
    private func costLine() -> String {
        let c = counts
        guard c.requests > 0 else { return "" }
        let per100 = { (n: Int) in c.words > 0 ? TextTable.fixed(100 * Double(n) / Double(c.words), 1) : "-" }
        let usd = Double(c.costPicoUSD) / 1e12
        let perWord = c.words > 0 ? usd / Double(c.words) : nil
        let money = { (x: Double?) in x.map { "$" + TextTable.fixed($0, 6) } ?? "-" }
        return """
        cost         \(per100(c.inputTokens)) input tokens per 100 words (\(per100(c.cachedTokens)) cached), \(per100(c.outputTokens)) output; \(money(perWord.map { 1000 * $0 })) per 1,000 words, \(money(perWord.map { $0 * wordsPerUserDay })) per user-day of \(TextTable.fixed(wordsPerUserDay, 0)) words; \(c.rejectedRequests) requests refused (\(TextTable.fixed(c.limitWaitSeconds, 1)) s waited)

        """
    }

    /// Budgets whose share over the limit exceeds the allowed share.
    public var failedBudgets: [LatencyRow] { latencies.filter { !$0.withinBudget } }

    /// The table `keysim run` prints.
    public func table() -> String {
        var table = TextTable(headers: ["latency (ms)", "count", "p50", "p95", "p99", "max", "budget", "over", "allowed"])
        for row in latencies where row.summary.count > 0 || row.metric == .key || row.metric == .suggestion {
            let s = row.summary
            let decimals = s.p50 >= 100 ? 0 : 2
            table.add([row.metric.rawValue, "\(s.count)", TextTable.fixed(s.p50, decimals), TextTable.fixed(s.p95, decimals),
                       TextTable.fixed(s.p99, decimals), TextTable.fixed(s.max, decimals),
                       row.budget.map { TextTable.fixed($0.limit.milliseconds, 0) } ?? "-",
                       row.budget == nil ? "-" : TextTable.percent(row.shareOverBudget),
                       row.budget.map { TextTable.percent($0.allowedShare) + (row.withinBudget ? "" : " FAIL") } ?? "-"])
        }
        let c = counts
        let per100 = { (n: Int) in c.words > 0 ? TextTable.fixed(100 * Double(n) / Double(c.words), 1) : "-" }
        let share = { (n: Int, of: Int) in of > 0 ? TextTable.percent(Double(n) / Double(of)) : "-" }
        return table.render() + """

        suggestions  \(c.suggestionsShown) shown, \(c.suggestionsSuperseded) superseded, \(c.suggestionsTooLate) too late (\(share(c.suggestionsTooLate, c.suggestionsShown)))
        underlines   \(c.localUnderlines) local: \(c.confirmed) confirmed, \(c.retracted) retracted (\(share(c.retracted, c.localUnderlines))), \(c.editedOrDropped) edited or dropped, \(c.openWithoutVerdict) open; verdict coverage \(share(c.confirmed + c.retracted, c.localUnderlines)) (on errors \(share(c.localOnErrorsWithVerdict, c.localOnErrors))); \(c.cloudFindings) found by the cloud; \(c.flickers) flickers
        accuracy     precision \(share(c.shownOnErrors, c.underlinesShown)) of \(c.underlinesShown) shown, recall \(share(min(c.shownOnErrors, c.errorWords), c.errorWords)) of \(c.errorWords) errors (shown \(medianMs(c.errorUnderlineDelaysMs)) after the word), false underlines \(c.words > 0 ? TextTable.fixed(100 * c.falseUnderlineSeconds / Double(c.words), 1) : "-") s visible per 100 words
        requests     \(c.requests) (\(per100(c.requests)) per 100 words, \(per100(c.charactersSent)) characters per 100 words), \(c.timeouts) timeouts, \(c.retries) retries, \(c.requestsFailed) failed, \(c.staleAnswers) stale answers (\(c.staleAnswers - c.staleLostWords) reconciled, \(c.staleLostWords) lost words)
        fixes        \(c.fixesApplied) applied, \(c.fixesDropped) dropped, \(c.corruptingFixes) corrupting

        """ + costLine() + (typing?.block() ?? "") + c.touches.lines() + extensionSummary.lines() + (c.dictations == 0 ? "" : """
        dictation    \(c.dictations) dictations, \(c.coldStarts) cold starts, \(c.clippedStarts) clipped first words (\(TextTable.fixed(c.clippedMs, 0)) ms lost), \(TextTable.fixed(c.speechLostMs / 1000, 1)) s lost to the cap
        microphone   on \(TextTable.fixed(c.micOnSeconds, 1)) s for \(TextTable.fixed(c.dictatedSeconds, 1)) s dictated (\(c.dictatedSeconds > 0 ? TextTable.fixed(c.micOnSeconds / c.dictatedSeconds, 1) : "-") s per dictated second), \(c.suspensions) suspensions

        """)
    }
}
