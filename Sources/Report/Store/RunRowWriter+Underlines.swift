import Sim

extension RunRowWriter {
    /// The columns of `underlines`, in insert order.
    static let underlineColumns = ["run_id", "underline_id", "word_ordinal", "word_length", "origin", "true_error",
                                   "word_finished_ns", "shown_ns", "confirmed_ns", "end_ns", "outcome", "flicker",
                                   "time_to_underline_ns", "time_to_confirmation_ns"]
    /// The columns of `requests`, in insert order.
    static let requestColumns = ["run_id", "request_id", "trigger", "sent_ns", "text_version", "characters", "words",
                                 "attempts", "timeouts", "offline_failures", "network_ns", "service_ns", "end_ns",
                                 "round_trip_ns", "outcome", "stale", "lost_words"]

    private static let origins = StaticTexts(UnderlineOrigin.allCases.map(\.rawValue))
    private static let underlineOutcomes = StaticTexts(UnderlineOutcome.allCases.map(\.rawValue))
    private static let triggers = StaticTexts(RequestTrigger.allCases.map(\.rawValue))
    private static let requestOutcomes = StaticTexts(RequestOutcome.allCases.map(\.rawValue))

    /// Writes one `underlines` row per underline.
    mutating func writeUnderlines(_ underlines: [UnderlineObservation], runID: Int64) throws {
        try underlineRows.begin(rows: underlines.count)
        for u in underlines {
            try underlineRows.add(runID)
            try underlineRows.add(u.id)
            try underlineRows.add(u.wordOrdinal)
            try underlineRows.add(u.wordLength)
            try underlineRows.add(Self.origins, UnderlineOrigin.allCases.firstIndex(of: u.origin)!)
            try underlineRows.add(u.trueError)
            try underlineRows.add(u.wordFinished.nanoseconds)
            try underlineRows.add(u.shown?.nanoseconds)
            try underlineRows.add(u.confirmed?.nanoseconds)
            try underlineRows.add(u.end.nanoseconds)
            try underlineRows.add(Self.underlineOutcomes, UnderlineOutcome.allCases.firstIndex(of: u.outcome)!)
            try underlineRows.add(u.flicker)
            try underlineRows.add(u.timeToUnderline?.nanoseconds)
            try underlineRows.add(u.timeToConfirmation?.nanoseconds)
            try underlineRows.endRow()
        }
        try underlineRows.finish()
    }

    /// Writes one `requests` row per cloud request.
    mutating func writeRequests(_ requests: [RequestObservation], runID: Int64) throws {
        try requestRows.begin(rows: requests.count)
        for r in requests {
            try requestRows.add(runID)
            try requestRows.add(r.id)
            try requestRows.add(Self.triggers, RequestTrigger.allCases.firstIndex(of: r.trigger)!)
            try requestRows.add(r.sent.nanoseconds)
            try requestRows.add(r.textVersion)
            try requestRows.add(r.characters)
            try requestRows.add(r.words)
            try requestRows.add(r.attempts)
            try requestRows.add(r.timeouts)
            try requestRows.add(r.offlineFailures)
            try requestRows.add(r.networkRoundTrip.nanoseconds)
            try requestRows.add(r.service.nanoseconds)
            try requestRows.add(r.end.nanoseconds)
            try requestRows.add(r.roundTrip.nanoseconds)
            try requestRows.add(Self.requestOutcomes, RequestOutcome.allCases.firstIndex(of: r.outcome)!)
            try requestRows.add(r.stale)
            try requestRows.add(r.lostWords)
            try requestRows.endRow()
        }
        try requestRows.finish()
    }
}
