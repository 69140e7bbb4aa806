import Sim

extension RunRowWriter {
    private static let origins = StaticTexts(UnderlineOrigin.allCases.map(\.rawValue))
    private static let underlineOutcomes = StaticTexts(UnderlineOutcome.allCases.map(\.rawValue))
    private static let triggers = StaticTexts(RequestTrigger.allCases.map(\.rawValue))
    private static let requestOutcomes = StaticTexts(RequestOutcome.allCases.map(\.rawValue))

    /// Writes one `underlines` row per underline.
    mutating func writeUnderlines(_ underlines: [UnderlineObservation], runID: Int64) throws {
        let c = ReportTables.underlines
        try underlineRows.begin(rows: underlines.count)
        for u in underlines {
            try underlineRows.set(c.runID, runID)
            try underlineRows.set(c.underlineID, u.id)
            try underlineRows.set(c.wordOrdinal, u.wordOrdinal)
            try underlineRows.set(c.wordLength, u.wordLength)
            try underlineRows.set(c.origin, Self.origins, UnderlineOrigin.allCases.firstIndex(of: u.origin)!)
            try underlineRows.set(c.trueError, u.trueError)
            try underlineRows.set(c.wordFinishedNs, u.wordFinished.nanoseconds)
            try underlineRows.set(c.shownNs, u.shown?.nanoseconds)
            try underlineRows.set(c.confirmedNs, u.confirmed?.nanoseconds)
            try underlineRows.set(c.endNs, u.end.nanoseconds)
            try underlineRows.set(c.outcome, Self.underlineOutcomes, UnderlineOutcome.allCases.firstIndex(of: u.outcome)!)
            try underlineRows.set(c.flicker, u.flicker)
            try underlineRows.set(c.timeToUnderlineNs, u.timeToUnderline?.nanoseconds)
            try underlineRows.set(c.timeToConfirmationNs, u.timeToConfirmation?.nanoseconds)
            try underlineRows.endRow()
        }
        try underlineRows.finish()
    }

    /// Writes one `requests` row per cloud request.
    mutating func writeRequests(_ requests: [RequestObservation], runID: Int64) throws {
        let c = ReportTables.requests
        try requestRows.begin(rows: requests.count)
        for r in requests {
            try requestRows.set(c.runID, runID)
            try requestRows.set(c.requestID, r.id)
            try requestRows.set(c.trigger, Self.triggers, RequestTrigger.allCases.firstIndex(of: r.trigger)!)
            try requestRows.set(c.sentNs, r.sent.nanoseconds)
            try requestRows.set(c.textVersion, r.textVersion)
            try requestRows.set(c.characters, r.characters)
            try requestRows.set(c.words, r.words)
            try requestRows.set(c.attempts, r.attempts)
            try requestRows.set(c.timeouts, r.timeouts)
            try requestRows.set(c.offlineFailures, r.offlineFailures)
            try requestRows.set(c.networkNs, r.networkRoundTrip.nanoseconds)
            try requestRows.set(c.serviceNs, r.service.nanoseconds)
            try requestRows.set(c.endNs, r.end.nanoseconds)
            try requestRows.set(c.roundTripNs, r.roundTrip.nanoseconds)
            try requestRows.set(c.outcome, Self.requestOutcomes, RequestOutcome.allCases.firstIndex(of: r.outcome)!)
            try requestRows.set(c.stale, r.stale)
            try requestRows.set(c.lostWords, r.lostWords)
            try requestRows.set(c.inputTokens, r.inputTokens)
            try requestRows.set(c.cachedTokens, r.cachedTokens)
            try requestRows.set(c.outputTokens, r.outputTokens)
            try requestRows.set(c.costUSD, r.costUSD)
            try requestRows.set(c.rejections, r.rejections)
            try requestRows.set(c.rejection, r.rejection?.rawValue)
            try requestRows.set(c.limitWaitNs, r.limitWait.nanoseconds)
            try requestRows.set(c.queueWaitNs, r.queueWait.nanoseconds)
            try requestRows.endRow()
        }
        try requestRows.finish()
    }

    /// Writes one `fixes` row per accepted chip.
    mutating func writeFixes(_ fixes: [FixObservation], runID: Int64) throws {
        let c = ReportTables.fixes
        try fixRows.begin(rows: fixes.count)
        for f in fixes {
            try fixRows.set(c.runID, runID)
            try fixRows.set(c.underlineID, f.underlineID)
            try fixRows.set(c.wordOrdinal, f.wordOrdinal)
            try fixRows.set(c.acceptedNs, f.accepted.nanoseconds)
            try fixRows.set(c.applied, f.applied)
            try fixRows.set(c.corrupted, f.corrupted)
            try fixRows.set(c.strategy, f.strategy.rawValue)
            try fixRows.endRow()
        }
        try fixRows.finish()
    }
}
