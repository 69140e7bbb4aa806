/// Reads the signpost duration histograms of a MetricKit payload
/// (`MXMetricPayload.jsonRepresentation()`, or an array of them): every entry of
/// `signpostMetrics` gives its `signpostName` the buckets of
/// `signpostIntervalData.histogrammedSignpostDurations.histogramValue`, each with
/// `bucketStart` and `bucketEnd` as values with units ("100 ms", "1.5 sec") and a
/// `bucketCount`. The buckets are interval-censored durations: the fit uses only which
/// bucket a duration fell in. Edges are durations and counts are counts as `ValueLimits`
/// says (at most about 104 days; at most 10^12 durations per name).
public enum MetricKitReader {
    /// The units accepted, with their size in milliseconds.
    static let units: [(name: String, ms: Double)] = [
        ("ns", 1e-6), ("us", 1e-3), ("µs", 1e-3), ("μs", 1e-3), ("ms", 1), ("s", 1000), ("sec", 1000),
        ("min", 60_000),
    ]

    /// The durations that buckets with equal ends may hold per name: each is kept as one
    /// number (`MeasuredCDF`), so their memory follows the counts, not the file's size.
    public static let pointDurationsMax = 1_000_000

    /// Reads `path`.
    public static func read(path: String) throws(InputError) -> CostReading {
        let text = try CostFile.text(path: path)
        let root: ConfigValue
        do {
            root = try JSON5Parser.parse(text)
        } catch {
            throw InputError(.invalidContent, file: path, line: error.line, column: error.column, message: error.message)
        }
        func fail(_ value: ConfigValue, _ message: String) -> InputError {
            InputError(.invalidContent, file: path, line: value.line >= 1 ? value.line : nil,
                       column: value.line >= 1 && value.column >= 1 ? value.column : nil, message: message)
        }
        let payloads: [ConfigValue]
        switch root.kind {
        case .array(let elements): payloads = elements
        case .object: payloads = [root]
        default: throw fail(root, "expected a MetricKit payload (a JSON object) or an array of them, found \(root.typeName)")
        }
        var collector = SeriesCollector()
        // Durations per name so far: a count is checked against `ValueLimits.countMax` in all.
        var totals: [String: Double] = [:]
        var pointTotals: [String: Double] = [:]
        var withoutHistogram = 0
        for payload in payloads {
            guard case .object = payload.kind else { throw fail(payload, "expected a MetricKit payload object, found \(payload.typeName)") }
            guard let metrics = payload["signpostMetrics"] else { continue }
            guard case .array(let entries) = metrics.kind else {
                throw fail(metrics, "\"signpostMetrics\" must be an array, found \(metrics.typeName)")
            }
            for entry in entries {
                guard case .object = entry.kind else { throw fail(entry, "a signpostMetrics entry must be an object, found \(entry.typeName)") }
                guard let nameValue = entry["signpostName"], case .string(let name) = nameValue.kind, !name.isEmpty else {
                    throw fail(entry["signpostName"] ?? entry, "a signpostMetrics entry needs a non-empty string \"signpostName\"")
                }
                guard let histogram = entry["signpostIntervalData"]?["histogrammedSignpostDurations"] else {
                    withoutHistogram += 1
                    continue
                }
                guard let values = histogram["histogramValue"] else {
                    throw fail(histogram, "\"histogrammedSignpostDurations\" without \"histogramValue\"")
                }
                let buckets: [ConfigValue]
                switch values.kind {
                case .array(let elements):
                    buckets = elements
                case .object(let members):
                    // Keyed "0", "1", …: in the order of the keys' numbers, not the file's.
                    var keyed: [(Int, ConfigValue)] = []
                    for member in members {
                        guard let index = Int(member.key) else {
                            throw fail(member.value, "histogramValue keys must be bucket numbers, found \"\(member.key)\"")
                        }
                        keyed.append((index, member.value))
                    }
                    buckets = keyed.sorted { $0.0 < $1.0 }.map(\.1)
                default:
                    throw fail(values, "\"histogramValue\" must be an object or an array, found \(values.typeName)")
                }
                for bucket in buckets {
                    let lower = try duration(bucket, "bucketStart", fail)
                    let upper = try duration(bucket, "bucketEnd", fail)
                    guard upper >= lower else {
                        throw fail(bucket["bucketEnd"]!, "bucketEnd is below bucketStart")
                    }
                    guard let countValue = bucket["bucketCount"], case .number(let count) = countValue.kind,
                          count >= 0, count == count.rounded() else {
                        throw fail(bucket["bucketCount"] ?? bucket, "\"bucketCount\" must be a non-negative integer")
                    }
                    let total = (totals[name] ?? 0) + count
                    guard ValueLimits.isCount(total) else {
                        throw fail(countValue, "\"bucketCount\" \(ConfigField.format(count)) brings \"\(name)\" to \(ConfigField.format(total)) durations, out of range (at most \(ValueLimits.countMax))")
                    }
                    totals[name] = total
                    if upper == lower {
                        // Equal ends are `count` copies of one duration, each kept as a number.
                        let points = (pointTotals[name] ?? 0) + count
                        guard points <= Double(pointDurationsMax) else {
                            throw fail(countValue, "buckets whose bucketStart equals bucketEnd hold \(ConfigField.format(points)) durations of \"\(name)\", more than the \(pointDurationsMax) kept one by one")
                        }
                        pointTotals[name] = points
                    }
                    collector.add(name, bucket: CostBucket(lowerMs: lower, upperMs: upper, count: Int(count)))
                }
            }
        }
        let remarks = withoutHistogram > 0 ? ["\(withoutHistogram) signpost metric(s) without a duration histogram skipped"] : []
        return CostReading(file: path, format: .metricKit, series: collector.series(file: path, format: .metricKit),
                           remarks: remarks)
    }

    /// A bucket edge: "100 ms", "1,500 ms", "0.25 sec" → milliseconds.
    private static func duration(_ bucket: ConfigValue, _ key: String,
                                 _ fail: (ConfigValue, String) -> InputError) throws(InputError) -> Double {
        guard case .object = bucket.kind else { throw fail(bucket, "a histogram bucket must be an object, found \(bucket.typeName)") }
        guard let value = bucket[key] else { throw fail(bucket, "histogram bucket without \"\(key)\"") }
        guard case .string(let text) = value.kind else {
            throw fail(value, "\"\(key)\" must be a value with a unit such as \"100 ms\", found \(value.typeName)")
        }
        guard let ms = milliseconds(text) else {
            throw fail(value, "\"\(key)\" must be a number and a unit (\(units.map(\.name).joined(separator: ", "))), found \"\(text)\"")
        }
        // The unit may carry a finite number past the limit, or to infinity ("1e305 min").
        guard ValueLimits.isDuration(ms: ms) else {
            throw fail(value, "\"\(key)\" \"\(text)\" is out of range (\(ValueLimits.durationLimitText))")
        }
        return ms
    }

    /// "1,500 ms" → 1500; `nil` for a malformed text or unknown unit.
    static func milliseconds(_ text: String) -> Double? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let unit = units.first(where: { $0.name == String(parts[1]) }) else { return nil }
        guard let value = Double(String(parts[0].filter { $0 != "," })), value.isFinite, value >= 0 else { return nil }
        return value * unit.ms
    }
}
