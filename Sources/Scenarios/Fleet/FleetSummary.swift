import Sim

/// A fleet's day in a few figures (docs/scenario-format.md, "Fleets"): what the backend
/// served and refused, what it cost per day and per daily user, how peaked the load was, and
/// what users saw at the busiest hour. Costs and counts "per day" scale the simulated users
/// up to the daily users they stand for (× represents ÷ users) and a span shorter than a
/// day up to the day (÷ the span's share of the day's activity).
public struct FleetSummary: Sendable, Equatable {
    /// Sessions simulated.
    public var sessions: Int
    /// Keys typed.
    public var keys: Int
    /// Attempts that reached the backend.
    public var arrivals: Int
    /// Attempts admitted to the queue.
    public var admitted: Int
    /// Attempts refused, by reason (every reason, in `RejectionReason.allCases` order).
    public var rejected: [(reason: RejectionReason, count: Int)]
    /// Share of arrivals refused; nil with no arrival.
    public var rejectedShare: Double?
    /// Tokens billed: input (cached included), cached, output.
    public var inputTokens: Int64
    /// Cached input tokens billed.
    public var cachedTokens: Int64
    /// Output tokens billed.
    public var outputTokens: Int64
    /// What the simulated users' requests cost over the span, USD.
    public var costUSD: Double
    /// What a day of every daily user costs, USD.
    public var costUSDPerDay: Double
    /// What a day costs per daily user, USD.
    public var costUSDPerDailyUser: Double
    /// The busiest minute's arrivals ÷ the mean minute's, over the span; nil with no arrival.
    public var peakToMean: Double?
    /// The busiest minute's arrivals per second (simulated users).
    public var peakArrivalsPerSecond: Double
    /// The hour of the day (0…23) with the most arrivals; nil with no arrival.
    public var busiestHour: Int?
    /// At the busiest hour: p95 arrival to first token, ms.
    public var busiestHourFirstTokenP95Ms: Double?
    /// At the busiest hour: p95 word finished to verdict, ms.
    public var busiestHourVerdictP95Ms: Double?
    /// Over the day: p95 arrival to first token, ms.
    public var firstTokenP95Ms: Double?
    /// Over the day: p95 word finished to verdict, ms.
    public var verdictP95Ms: Double?
    /// Local underlines with a verdict in time, over all that ended; nil for none.
    public var verdictCoverage: Double?
    /// Replica time busy over replica time, over every minute; nil with no replica.
    public var utilisation: Double?
    /// The most sessions open at once in one partition.
    public var sessionsOpenMax: Int

    public static func == (lhs: FleetSummary, rhs: FleetSummary) -> Bool {
        lhs.sessions == rhs.sessions && lhs.keys == rhs.keys && lhs.arrivals == rhs.arrivals && lhs.admitted == rhs.admitted
            && lhs.rejected.elementsEqual(rhs.rejected) { $0.reason == $1.reason && $0.count == $1.count }
            && lhs.rejectedShare == rhs.rejectedShare && lhs.inputTokens == rhs.inputTokens && lhs.cachedTokens == rhs.cachedTokens
            && lhs.outputTokens == rhs.outputTokens && lhs.costUSD == rhs.costUSD && lhs.costUSDPerDay == rhs.costUSDPerDay
            && lhs.costUSDPerDailyUser == rhs.costUSDPerDailyUser && lhs.peakToMean == rhs.peakToMean
            && lhs.peakArrivalsPerSecond == rhs.peakArrivalsPerSecond && lhs.busiestHour == rhs.busiestHour
            && lhs.busiestHourFirstTokenP95Ms == rhs.busiestHourFirstTokenP95Ms && lhs.busiestHourVerdictP95Ms == rhs.busiestHourVerdictP95Ms
            && lhs.firstTokenP95Ms == rhs.firstTokenP95Ms && lhs.verdictP95Ms == rhs.verdictP95Ms
            && lhs.verdictCoverage == rhs.verdictCoverage && lhs.utilisation == rhs.utilisation && lhs.sessionsOpenMax == rhs.sessionsOpenMax
    }
}

extension FleetResult {
    /// The day's figures.
    public var summary: FleetSummary {
        var total = FleetMinute(minute: 0, replicas: 0)
        for minute in minutes {
            var copy = minute
            copy.minute = 0
            total.merge(copy)
        }
        let meter = total.backend
        let rejected = RejectionReason.allCases.map { (reason: $0, count: meter.rejected($0)) }
        let costUSD = Double(meter.costPicoUSD) / 1e12
        let perDay = costUSD * Double(represents) / Double(users) / dayShare
        let span = minutes.prefix(spanMinutes)
        let peak = span.map(\.backend.arrivals).max() ?? 0
        let spanArrivals = span.map(\.backend.arrivals).reduce(0, +)
        // The busiest hour among the span's hours (the drain belongs to the last one).
        var byHour: [(arrivals: Int, firstToken: LatencyHistogram, verdict: LatencyHistogram)] =
            Array(repeating: (0, LatencyHistogram(), LatencyHistogram()), count: spanHourCount)
        for minute in minutes {
            let hour = spanHour(ofMinute: minute.minute)
            byHour[hour].arrivals += minute.backend.arrivals
            byHour[hour].firstToken.merge(minute.firstToken)
            byHour[hour].verdict.merge(minute.verdict)
        }
        // The earliest of the hours with the most arrivals.
        let busiest = meter.arrivals == 0 ? nil : byHour.indices.min { (-byHour[$0].arrivals, $0) < (-byHour[$1].arrivals, $1) }
        let replicaNanos = minutes.map { Double($0.replicas) * Double(FleetMinute.lengthNanos) }.reduce(0, +)
        return FleetSummary(
            sessions: sessions, keys: total.keys, arrivals: meter.arrivals, admitted: meter.admitted, rejected: rejected,
            rejectedShare: total.rejectedShare, inputTokens: meter.inputTokens, cachedTokens: meter.cachedTokens,
            outputTokens: meter.outputTokens, costUSD: costUSD, costUSDPerDay: perDay, costUSDPerDailyUser: perDay / Double(represents),
            peakToMean: spanArrivals == 0 ? nil : Double(peak) / (Double(spanArrivals) / Double(span.count)),
            peakArrivalsPerSecond: Double(peak) / 60,
            busiestHour: busiest.map { (startHour + $0) % 24 },
            busiestHourFirstTokenP95Ms: busiest.flatMap { FleetMinute.percentileMs(byHour[$0].firstToken, 95) },
            busiestHourVerdictP95Ms: busiest.flatMap { FleetMinute.percentileMs(byHour[$0].verdict, 95) },
            firstTokenP95Ms: FleetMinute.percentileMs(total.firstToken, 95), verdictP95Ms: FleetMinute.percentileMs(total.verdict, 95),
            verdictCoverage: total.verdictCoverage,
            utilisation: replicaNanos == 0 ? nil : Double(meter.busyReplicaNanos) / replicaNanos,
            sessionsOpenMax: sessionsOpenMax.max() ?? 0)
    }
}
