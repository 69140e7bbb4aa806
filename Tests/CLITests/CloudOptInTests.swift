import Foundation
import Report
import XCTest

/// A scenario that does not opt into the token service model (`cloud.model` without
/// `timesFromTokens`, no limits, no retry policy) keeps its timing: its tokens and dollars are
/// computed for every request but change nothing else. So two runs that differ only in what
/// a request carries in tokens and what a token costs give the same report, once the columns
/// and metrics that hold tokens and dollars are set aside.
final class CloudOptInTests: XCTestCase {
    /// The `requests` columns that hold tokens and dollars, and the run metrics made from them.
    static let tokenColumns = ["input_tokens", "cached_tokens", "output_tokens", "cost_usd"]
    static let tokenMetrics = [RunMetric.inputTokensPer100Words, .cachedTokensPer100Words, .outputTokensPer100Words,
                               .costUSDPer1000Words, .costUSDPerUserDay].map(\.name)

    func testTokensAndPricesChangeNothingButTokensAndPrices() throws {
        let folder = try TemporaryFolder()
        var digests: [[ReportRowDigest.Table]] = []
        var costs: [Double] = []
        for (k, settings) in [[], ["cloud.tokens.systemPromptTokens=4000", "cloud.tokens.outputTokensPerFlaggedWord=30",
                                   "cloud.tokens.charactersPerToken=2", "cloud.pricing.preset=haiku-class"]].enumerated() {
            let db = folder.path("run-\(k).sqlite")
            let arguments = ["run", "scenarios/bad-network.json5", "--seed", "42", "--replications", "2", "--detail", "full",
                             "--db", db] + settings.flatMap { ["--set", $0] }
            let output = try KeysimProcess.run(arguments)
            XCTAssertTrue(output.status == 0 || output.status == 1, output.stderr)
            let database = try Database(path: db)
            guard case .real(let cost) = try database.query("SELECT SUM(cost_usd) FROM requests")[0][0] else {
                return XCTFail("no requests in the run")
            }
            costs.append(cost)
            for column in Self.tokenColumns { try database.execute("ALTER TABLE requests DROP COLUMN \(column)") }
            let names = Self.tokenMetrics.map { "'\($0)'" }.joined(separator: ", ")
            try database.execute("DELETE FROM run_metrics WHERE metric IN (\(names))")
            // The settings themselves are recorded, as the job's and each run's scenario hash;
            // what was measured is not.
            for table in ["runs", "batches"] { try database.execute("UPDATE \(table) SET scenario_hash = ''") }
            digests.append(try ReportRowDigest(database: database).tables.filter { !["jobs", "job_batches"].contains($0.name) })
        }
        XCTAssertGreaterThan(costs[1], 5 * costs[0], "the second run's requests carry more and dearer tokens")
        XCTAssertEqual(digests[0].map(\.name), digests[1].map(\.name))
        for (a, b) in zip(digests[0], digests[1]) {
            XCTAssertEqual(a, b, "table \(a.name) moved with the tokens' prices")
        }
    }
}
