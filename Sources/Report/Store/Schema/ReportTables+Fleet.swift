import Sim

/// The tables of a fleet run (`keysim fleet`, docs/scenario-format.md "Fleets"): the day's
/// summary, its minutes and the minutes' latency histograms. The minutes keep their additive
/// figures (counts, sums, time integrals) beside the figures read from them, and the
/// histograms keep every bucket, so that the reports of a fleet's shards merge into exactly
/// the report one machine writes (`FleetReportMerge`).
extension ReportTables {
    static let fleetSummary = FleetSummaryTable()
    static let fleetMinutes = FleetMinutes()
    static let fleetHistograms = FleetHistograms()

    /// `fleet_summary`: one row per fleet run (or shard of one, or merge of its shards).
    struct FleetSummaryTable: ReportTableDeclaration {
        let table: ReportTable
        let fleetID: TableColumn<RowID>
        let scenarioName, scenarioPath, fingerprint, partitions, sessionsOpenMax, keysimVersion, createdAt: TableColumn<String>
        let seed, users, represents, partitionCount, spanMinutes, startHour, minutes, sessions, keys: TableColumn<Int64>
        let arrivals, admitted, rejected, inputTokens, cachedTokens, outputTokens: TableColumn<Int64>
        let dayShare, costUSD, costUSDPerDay, costUSDPerDailyUser, peakArrivalsPerSecond: TableColumn<Double>
        let peakToMean, rejectedShare, verdictCoverage, utilisation: TableColumn<Double?>
        let firstTokenP95Ms, verdictP95Ms, busiestHourFirstTokenP95Ms, busiestHourVerdictP95Ms: TableColumn<Double?>
        let busiestHour: TableColumn<Int64?>
        let wallSeconds: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "fleet_summary", rowPer: "fleet run, shard of one, or merge of its shards")
            fleetID = t.column("fleet_id")
            scenarioName = t.column("scenario_name")
            scenarioPath = t.column("scenario_path")
            fingerprint = t.column("fingerprint", "the scenario as run (overrides applied, its typists' content); shards of one fleet share it")
            seed = t.column("seed")
            users = t.column("users", "users simulated, every partition's")
            represents = t.column("represents", "the daily users they stand for; figures per day are scaled by represents / users")
            partitionCount = t.column("partition_count", "partitions the fleet is split into")
            partitions = t.column("partitions", "the 0-based partitions this row holds, a JSON array in ascending order")
            spanMinutes = t.column("span_minutes", "minutes of the simulated span (the day's hours × 60)")
            startHour = t.column("start_hour", "the hour of the day (0…23) minute 0 begins")
            dayShare = t.column("day_share", "the share of a day's sessions the span holds (1 for a whole day)", unit: "share")
            minutes = t.column("minutes", "rows in `fleet_minutes`: the span's, then those the last sessions drained in")
            sessions = t.column("sessions", "sessions simulated in these partitions")
            sessionsOpenMax = t.column("sessions_open_max", "per partition held, the most sessions open at once: a JSON array in partition order")
            keys = t.column("keys", "keys the sessions handled")
            arrivals = t.column("arrivals", "requests arriving at the backends")
            admitted = t.column("admitted", "requests admitted to a queue")
            rejected = t.column("rejected", "requests refused, every reason (`fleet_minutes` has them by reason)")
            inputTokens = t.column("input_tokens", "input tokens billed (cached included)")
            cachedTokens = t.column("cached_tokens")
            outputTokens = t.column("output_tokens")
            costUSD = t.column("cost_usd", "what the simulated users' requests cost over the span", unit: "USD")
            costUSDPerDay = t.column("cost_usd_per_day", "a day of every daily user: cost_usd × represents / users / day_share", unit: "USD")
            costUSDPerDailyUser = t.column("cost_usd_per_daily_user", "cost_usd_per_day / represents", unit: "USD")
            rejectedShare = t.column("rejected_share", "share of the arrivals refused", unit: "share")
            peakToMean = t.column("peak_to_mean", "the busiest minute's arrivals over the mean minute's, over the span", unit: "ratio")
            peakArrivalsPerSecond = t.column("peak_arrivals_per_s", "the busiest minute's arrivals per second (simulated users)", unit: "1/s")
            busiestHour = t.column("busiest_hour", "the hour of the day (0…23) with the most arrivals")
            busiestHourFirstTokenP95Ms = t.column("busiest_hour_first_token_p95_ms", "p95 arrival to first token in the busiest hour")
            busiestHourVerdictP95Ms = t.column("busiest_hour_verdict_p95_ms", "p95 word finished to verdict in the busiest hour")
            firstTokenP95Ms = t.column("first_token_p95_ms", "p95 arrival to first token over the day")
            verdictP95Ms = t.column("verdict_p95_ms", "p95 word finished to verdict over the day")
            verdictCoverage = t.column("verdict_coverage", "share of the local underlines that had the cloud's verdict in time", unit: "share")
            utilisation = t.column("utilisation", "replica time serving a batch over replica time, every minute", unit: "share")
            keysimVersion = t.column("keysim_version")
            createdAt = t.column("created_at", "when the row was written (ISO 8601)")
            wallSeconds = t.column("wall_seconds", "wall-clock time of the run (every shard's, summed, after a merge)")
            table = t.table(primaryKey: [fleetID], note: "The figures from `keys` on are `FleetResult.summary` of the fleet's minutes.")
        }
    }

    /// `fleet_minutes`: one row per minute of a fleet's day.
    struct FleetMinutes: ReportTableDeclaration {
        let table: ReportTable
        let fleetID, minute, replicas, arrivals, admitted, started, served, abandoned: TableColumn<Int64>
        /// Refusals by reason, in `RejectionReason.allCases` order.
        let rejected: [TableColumn<Int64>]
        let queueWaitNs, queueRequestNs, busyReplicaNs, batchedRequestNs: TableColumn<Int64>
        let sessionsStarted, openSessionNs, keys, inputTokens, cachedTokens, outputTokens, costPicoUSD: TableColumn<Int64>
        let underlinesEnded, underlinesWithVerdict: TableColumn<Int64>
        let arrivalsPerSecond, queueLengthMean, openSessionsMean: TableColumn<Double>
        let batchMean, utilisation, queueWaitMeanMs, rejectedShare, verdictCoverage: TableColumn<Double?>
        let firstTokenP50Ms, firstTokenP95Ms, firstTokenP99Ms, serviceP50Ms, serviceP95Ms, verdictP50Ms, verdictP95Ms: TableColumn<Double?>

        init() {
            var t = ReportTableBuilder(Self.self, "fleet_minutes", rowPer: "(fleet, minute of the day)")
            fleetID = t.column("fleet_id", references: "fleet_summary(fleet_id)")
            minute = t.column("minute", "0-based minute of the day")
            replicas = t.column("replicas", "model replicas serving, every partition's")
            arrivals = t.column("arrivals", "requests arriving at the backends in the minute")
            admitted = t.column("admitted", "requests admitted to a queue")
            rejected = RejectionReason.allCases.map { reason in
                t.column("rejected_" + reason.rawValue.replacingOccurrences(of: "-", with: "_"), "requests refused: \(reason.rawValue)")
            }
            started = t.column("started", "requests whose service began")
            served = t.column("served", "requests served to the last token")
            abandoned = t.column("abandoned", "requests the clients gave up while they waited in a queue")
            queueWaitNs = t.column("queue_wait_ns", "sum of the queue waits of the requests whose service began")
            queueRequestNs = t.column("queue_request_ns", "∫ queue length dt", unit: "request·ns")
            busyReplicaNs = t.column("busy_replica_ns", "∫ replicas serving a batch dt", unit: "replica·ns")
            batchedRequestNs = t.column("batched_request_ns", "∫ requests in batches dt", unit: "request·ns")
            sessionsStarted = t.column("sessions_started")
            openSessionNs = t.column("open_session_ns", "∫ open sessions dt", unit: "session·ns")
            keys = t.column("keys", "keys the sessions handled")
            inputTokens = t.column("input_tokens", "input tokens billed (cached included)")
            cachedTokens = t.column("cached_tokens")
            outputTokens = t.column("output_tokens")
            costPicoUSD = t.column("cost_picousd", "what the requests billed cost", unit: "picodollars")
            underlinesEnded = t.column("underlines_ended", "local underlines whose chip ended")
            underlinesWithVerdict = t.column("underlines_with_verdict", "of those, the ones with the cloud's verdict in time")
            arrivalsPerSecond = t.column("arrivals_per_s", "read from the above: arrivals / 60", unit: "1/s")
            queueLengthMean = t.column("queue_length_mean", "queue_request_ns / one minute", unit: "requests")
            openSessionsMean = t.column("open_sessions_mean", "open_session_ns / one minute", unit: "sessions")
            batchMean = t.column("batch_mean", "batched_request_ns / busy_replica_ns; NULL when no replica served", unit: "requests")
            utilisation = t.column("utilisation", "busy_replica_ns / (replicas × one minute)", unit: "share")
            queueWaitMeanMs = t.column("queue_wait_mean_ms", "queue_wait_ns / started")
            rejectedShare = t.column("rejected_share", "refused / arrivals", unit: "share")
            verdictCoverage = t.column("verdict_coverage", "underlines_with_verdict / underlines_ended", unit: "share")
            firstTokenP50Ms = t.column("first_token_p50_ms", "arrival to first token, of the first tokens in the minute (from `fleet_histograms`)")
            firstTokenP95Ms = t.column("first_token_p95_ms")
            firstTokenP99Ms = t.column("first_token_p99_ms")
            serviceP50Ms = t.column("service_p50_ms", "arrival to last token, of the requests served in the minute")
            serviceP95Ms = t.column("service_p95_ms")
            verdictP50Ms = t.column("verdict_p50_ms", "word finished to the cloud's verdict, of the verdicts in the minute")
            verdictP95Ms = t.column("verdict_p95_ms")
            table = t.table(primaryKey: [fleetID, minute], withoutRowID: true,
                            note: "The columns from `arrivals_per_s` on are read from the additive ones before them (and the histograms); a NULL says the minute had nothing to measure.")
        }
    }

    /// `fleet_histograms`: the non-empty buckets of each minute's latency histograms.
    struct FleetHistograms: ReportTableDeclaration {
        let table: ReportTable
        let fleetID, minute, bucket, count: TableColumn<Int64>
        let metric: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "fleet_histograms", rowPer: "(fleet, minute, latency, non-empty bucket)")
            fleetID = t.column("fleet_id", references: "fleet_summary(fleet_id)")
            minute = t.column("minute")
            metric = t.column("metric", "`first_token`, `service` or `verdict`")
            bucket = t.column("bucket", "the `LatencyHistogram` bucket (exact below 128 ns, then 64 per power of two)")
            count = t.column("count", "values in it")
            table = t.table(primaryKey: [fleetID, minute, metric, bucket], withoutRowID: true,
                            note: "Kept so that shards merge exactly: a merged minute's percentiles are read from the sum of its shards' buckets.")
        }
    }
}
