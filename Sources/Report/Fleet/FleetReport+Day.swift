import Sim

/// The day's figures of a fleet report: what `fleet_summary`, the terminal summary and the
/// `--json` document's `summary` show.
extension FleetReport {
    /// The whole day as one span.
    public var day: FleetSpan { FleetSpan(minutes) }

    /// The day's hours (the last one shorter when the day does not end on the hour).
    public var hours: [FleetSpan] {
        stride(from: 0, to: minutes.count, by: 60).map { FleetSpan(minutes[$0..<min($0 + 60, minutes.count)]) }
    }

    /// What the simulated users' requests cost, USD.
    public var costUSD: Double { Double(day.total.backend.costPicoUSD) / 1e12 }

    /// The day's cost for the represented users, USD: the simulated users' scaled by
    /// represents / users; nil with no user.
    public var costUSDPerDay: Double? { users == 0 ? nil : costUSD * Double(represents) / Double(users) }

    /// The day's cost per represented user, USD; nil with none.
    public var costUSDPerDailyUser: Double? { represents == 0 ? nil : costUSDPerDay.map { $0 / Double(represents) } }

    /// The busiest minute's arrivals per second.
    public var peakArrivalsPerSecond: Double? { minutes.map(\.arrivalsPerSecond).max() }

    /// The busiest minute's arrivals over the mean minute's; nil for a day with no arrival.
    public var peakToMean: Double? {
        let total = minutes.reduce(0) { $0 + $1.backend.arrivals }
        guard total > 0, let peak = minutes.map(\.backend.arrivals).max() else { return nil }
        return Double(peak) * Double(minutes.count) / Double(total)
    }

    /// The 0-based hour with the most arrivals (the earliest of equals); nil for no arrival.
    public var busiestHour: Int? {
        let hours = hours
        guard let most = hours.map(\.total.backend.arrivals).max(), most > 0 else { return nil }
        return hours.firstIndex { $0.total.backend.arrivals == most }
    }

    /// Keys the sessions handled over the day.
    public var keys: Int { minutes.reduce(0) { $0 + $1.keys } }
}
