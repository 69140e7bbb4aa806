import Scenarios
import Sim

/// A figure of a fleet's day, declared once, as `RunMetric` is for one keyboard's run: its
/// name, label, unit, direction, a sentence for the docs, and how it is computed from a
/// `FleetResult` (through its `FleetSummary`, computed once for every metric). `FleetMetric.all`
/// is the one list the fleet's day page, `keysim sweep` over a fleet (its axes and `--where`)
/// and the docs read.
public struct FleetMetric: Sendable, Equatable {
    /// Its name in tables and JSON, snake case with the unit last.
    public let name: String
    /// Human label with the unit, for tables and charts.
    public let label: String
    /// The unit ("ms", "share", "USD per day", "per second").
    public let unit: String
    /// Whether smaller values are better.
    public let lowerIsBetter: Bool
    /// One sentence for the docs.
    public let description: String
    /// The value of a fleet's day; nil where it has none (no arrival, no verdict…).
    let compute: @Sendable (Day) -> Double?

    /// What a metric is computed from: the result and its summary, computed once.
    public struct Day: Sendable {
        /// The fleet run.
        public let result: FleetResult
        /// Its day's figures.
        public let summary: FleetSummary

        /// The day of `result`.
        public init(_ result: FleetResult) {
            self.result = result
            summary = result.summary
        }
    }

    /// Declares a metric.
    init(name: String, label: String, unit: String, lowerIsBetter: Bool, description: String,
         compute: @escaping @Sendable (Day) -> Double?) {
        self.name = name
        self.label = label
        self.unit = unit
        self.lowerIsBetter = lowerIsBetter
        self.description = description
        self.compute = compute
    }

    /// The metric's value for `day`; nil where it has none.
    public func value(for day: Day) -> Double? { compute(day).flatMap { $0.isFinite ? $0 : nil } }

    /// The metric's value for `result`. Computing several of one result, make its `Day` once.
    public func value(for result: FleetResult) -> Double? { value(for: Day(result)) }

    /// Decimal places shown in tables: a share to 4, a daily user's dollars to 6 (a fraction
    /// of a cent), a day's dollars, counts and milliseconds to 2.
    public var decimals: Int { unit == "share" ? 4 : unit == "USD per daily user" ? 6 : 2 }

    /// `value` as a table shows it, "–" for none.
    public func text(_ value: Double?) -> String { value.map { TextTable.fixed($0, decimals) } ?? "–" }

    /// Two metrics are the same when their names are.
    public static func == (lhs: FleetMetric, rhs: FleetMetric) -> Bool { lhs.name == rhs.name }
}

extension FleetMetric {
    /// A day of every daily user, USD.
    public static let costPerDay = FleetMetric(
        name: "cost_usd_per_day", label: "cost per day (USD)", unit: "USD per day", lowerIsBetter: true,
        description: "What the backend billed for the simulated users' requests, scaled to every daily user they stand for "
            + "and, for a span shorter than a day, to the whole day by the span's share of the day's activity."
    ) { $0.summary.costUSDPerDay }

    /// A day per daily user, USD.
    public static let costPerDailyUser = FleetMetric(
        name: "cost_usd_per_daily_user", label: "cost per daily user (USD)", unit: "USD per daily user", lowerIsBetter: true,
        description: "The cost per day divided by the daily users."
    ) { $0.summary.costUSDPerDailyUser }

    /// The busiest minute against the mean one.
    public static let peakToMean = FleetMetric(
        name: "peak_to_mean", label: "peak-to-mean arrivals", unit: "ratio", lowerIsBetter: true,
        description: "The busiest minute's arrivals divided by the mean minute's, over the simulated span: how much capacity "
            + "the peak needs beyond the average."
    ) { $0.summary.peakToMean }

    /// The busiest minute's arrivals per second.
    public static let peakArrivalsPerSecond = FleetMetric(
        name: "peak_arrivals_per_s", label: "peak arrivals per second", unit: "per second", lowerIsBetter: true,
        description: "Attempts reaching the backend per second in the busiest minute, from the simulated users."
    ) { $0.summary.peakArrivalsPerSecond }

    /// Refused attempts.
    public static let rejectedShare = FleetMetric(
        name: "rejected_share", label: "rejected (share of arrivals)", unit: "share", lowerIsBetter: true,
        description: "Attempts the backend refused (queue full, admission control, limits) over all that reached it."
    ) { $0.summary.rejectedShare }

    /// p95 first token at the busiest hour.
    public static let busiestHourFirstTokenP95Ms = FleetMetric(
        name: "busiest_hour_first_token_p95_ms", label: "busiest hour: first token, p95 (ms)", unit: "ms", lowerIsBetter: true,
        description: "95th percentile of arrival to first token over the attempts whose first token came in the hour with the "
            + "most arrivals."
    ) { $0.summary.busiestHourFirstTokenP95Ms }

    /// p95 verdict at the busiest hour: what the sweep over replicas holds to a target.
    public static let busiestHourVerdictP95Ms = FleetMetric(
        name: "busiest_hour_verdict_p95_ms", label: "busiest hour: time to verdict, p95 (ms)", unit: "ms", lowerIsBetter: true,
        description: "95th percentile of the time from a word being finished to the cloud's verdict on its local underline, "
            + "over the verdicts that came in the hour with the most arrivals (read it with `busiest_hour_verdict_coverage`)."
    ) { $0.summary.busiestHourVerdictP95Ms }

    /// Verdict coverage at the busiest hour.
    public static let busiestHourVerdictCoverage = FleetMetric(
        name: "busiest_hour_verdict_coverage", label: "busiest hour: verdict coverage (share)", unit: "share", lowerIsBetter: false,
        description: "Local underlines ending in the hour with the most arrivals that had the cloud's verdict in time, over "
            + "all that ended then: a backend that answers late shows here before its p95 does."
    ) { day in day.summary.busiestHour.flatMap { day.result.verdictCoverage(inHourOfDay: $0) } }

    /// p95 first token over the day.
    public static let firstTokenP95Ms = FleetMetric(
        name: "first_token_p95_ms", label: "first token, p95 (ms)", unit: "ms", lowerIsBetter: true,
        description: "95th percentile of arrival to first token over every served attempt of the day."
    ) { $0.summary.firstTokenP95Ms }

    /// p95 verdict over the day.
    public static let verdictP95Ms = FleetMetric(
        name: "verdict_p95_ms", label: "time to verdict, p95 (ms)", unit: "ms", lowerIsBetter: true,
        description: "95th percentile of the time from a word being finished to the cloud's verdict on its local underline, "
            + "over the day's verdicts."
    ) { $0.summary.verdictP95Ms }

    /// Verdict coverage over the day.
    public static let verdictCoverage = FleetMetric(
        name: "verdict_coverage", label: "verdict coverage (share)", unit: "share", lowerIsBetter: false,
        description: "Local underlines that had the cloud's verdict in time, over all that ended during the day (the run "
            + "metric of the same name, over every session)."
    ) { $0.summary.verdictCoverage }

    /// Replica utilisation over the day.
    public static let utilisation = FleetMetric(
        name: "utilisation", label: "replica utilisation (share)", unit: "share", lowerIsBetter: false,
        description: "Replica time spent serving a batch over all replica time of the day: capacity paid for and used."
    ) { $0.summary.utilisation }

    /// The replicas serving: the capacity a sweep over the backend trades against latency.
    public static let replicas = FleetMetric(
        name: "replicas", label: "model replicas", unit: "count", lowerIsBetter: true,
        description: "Model replicas serving (every partition's), the mean over the day's minutes: the capacity bought."
    ) { day in
        let minutes = day.result.minutes
        return minutes.isEmpty ? nil : Double(minutes.reduce(0) { $0 + $1.replicas }) / Double(minutes.count)
    }

    /// Every fleet metric, in the order the day page's summary lists them.
    public static let all: [FleetMetric] = [
        costPerDay, costPerDailyUser, peakToMean, peakArrivalsPerSecond, rejectedShare, busiestHourFirstTokenP95Ms,
        busiestHourVerdictP95Ms, busiestHourVerdictCoverage, firstTokenP95Ms, verdictP95Ms, verdictCoverage, utilisation, replicas,
    ]

    /// The metric named `name`, if it is one of `all`.
    public static func named(_ name: String) -> FleetMetric? { all.first { $0.name == name } }

    /// The metrics as a Markdown table (name, unit, direction, description) for the docs.
    public static var catalogMarkdown: String {
        "| metric | unit | better | what |\n| --- | --- | --- | --- |\n"
            + all.map { "| `\($0.name)` | \($0.unit) | \($0.lowerIsBetter ? "lower" : "higher") | \($0.description) |\n" }.joined()
    }
}
