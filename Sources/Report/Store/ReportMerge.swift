import Foundation
import Scenarios

/// Combines the report files of a job's shards into one report that holds the same rows a
/// single machine would have written (only the wall-clock columns differ).
///
/// Every input is checked first — a keysim report of this schema, whose jobs are complete
/// shards of the same jobs as the other inputs, every shard present once — and nothing is
/// written until all checks pass. The output is then written in one transaction: runs take
/// their place by work-item index, so run ids follow the work-item order as in a
/// single-machine run, and comparisons and sweeps are computed from the merged runs by the
/// same code a single machine runs.
///
/// Tables are copied by discovery (`sqlite_master`), so tables other parts of keysim add
/// are merged without changes here, provided they follow the report's conventions: rows of
/// a run carry `run_id` (and are keyed by it, not by an id of their own); rows of a batch
/// carry `batch_id`.
public enum ReportMerge {
    /// What a merge combined.
    public struct Summary: Sendable {
        /// Input files.
        public var inputs: Int
        /// The merged jobs' row ids in the output, in order.
        public var jobIDs: [Int64]
        /// One description per job ("sweep of 'default'").
        public var jobDescriptions: [String]
        /// Runs written.
        public var runs: Int
        /// Rows written, all tables together.
        public var rows: Int
    }

    /// Tables whose rows merge writes itself rather than copying. A fleet's tables are keyed
    /// by `fleet_id`, neither a run nor a catalog: each input's fleets are read whole and
    /// written again under new ids (`copyFleets`).
    static let managedTables = Set([
        "batches", "jobs", "job_batches", "job_runs", "comparisons", "comparison_metrics", "sweeps", "sweep_points",
    ]).union([ReportTables.fleetSummary.table, ReportTables.fleetMinutes.table, ReportTables.fleetHistograms.table].map(\.name))

    /// One job row of one input.
    struct ShardJob {
        var input: Int
        var jobID: Int64
        var key: String
        var command: String
        var scenarioName: String
        var seed: Int64
        var replications: Int64
        var workItems: Int
        var shardIndex: Int
        var shardCount: Int
        var complete: Bool
        var runs: Int

        var description: String { "\(command) of scenario '\(scenarioName)' (seed \(seed), \(replications) replication(s), job \(key.prefix(12)))" }
    }

    /// Merges `inputs` into `output` (created if missing; an existing report keeps its rows
    /// and gains the merged ones).
    /// - Throws: `ReportError` naming the offending file; no file is changed then.
    public static func merge(output: String, inputs: [String], busyTimeoutMs: Int) throws -> Summary {
        guard !inputs.isEmpty else { throw ReportError(file: output, message: "nothing to merge: give the shard files after the output") }
        try checkDistinct(output: output, inputs: inputs)
        // Check every input before touching the output.
        var stores: [ReportStore] = []
        var jobsByInput: [[ShardJob]] = []
        for (index, input) in inputs.enumerated() {
            let store = try ReportStore(path: input, readOnly: true, busyTimeoutMs: busyTimeoutMs)
            jobsByInput.append(try readJobs(store, input: index))
            stores.append(store)
        }
        let plan = try checkShards(jobsByInput, inputs: inputs)

        if FileManager.default.fileExists(atPath: output) {
            let existing = try ReportStore(path: output, readOnly: true, busyTimeoutMs: busyTimeoutMs)
            if try existing.database.tableExists("jobs") {
                for job in plan {
                    let found = try existing.database.query("SELECT COUNT(*) FROM jobs WHERE job_key = ?", [.text(job[0].key)])
                    if found.first?.first?.integerValue ?? 0 > 0 {
                        throw ReportError(file: output, message: "already holds the job \(job[0].description); was it merged before?")
                    }
                }
            }
        }
        // A new output is made whole under a private name and linked into place, so that a
        // failed merge never removes a report another process made meanwhile.
        let existed = FileManager.default.fileExists(atPath: output)
        let target = existed ? output : ReportStore.privatePath(besides: output)
        defer { if !existed { ReportStore.removeFiles(of: target) } }
        let merged: Summary
        do {
            let store = try ReportStore(path: target, busyTimeoutMs: busyTimeoutMs)
            merged = try store.database.transaction {
                try ReportSchema.ensureAnalysisTables(store.database)
                return try write(plan, from: stores, into: store.database)
            }
            try JobWriter.checkpoint(store, reportPath: output)
        } catch let error as SQLiteError {
            throw ReportStore.describe(error, path: output)
        } catch let error as ReportError {
            throw ReportError(file: output, message: error.message)
        }
        if !existed {
            switch try ReportStore.publish(target, at: output) {
            case .published: break
            case .exists: throw ReportError(file: output, message: "was created by another process during the merge; merge again into a new file")
            case .unsupported: try FileManager.default.copyItem(atPath: target, toPath: output)
            }
        }
        return merged
    }

    /// Checks that no input is the output and none is given twice.
    static func checkDistinct(output: String, inputs: [String]) throws(ReportError) {
        let outputIdentity = identity(output)
        var seen: [String: String] = [:]
        for input in inputs {
            if identity(input) == outputIdentity {
                throw ReportError(file: input, message: "is also the output; merge into a new file")
            }
            if let earlier = seen[identity(input)] {
                throw ReportError(file: input, message: "is given twice (also as \(earlier))")
            }
            seen[identity(input)] = input
        }
    }

    private static func identity(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    private static func readJobs(_ store: ReportStore, input: Int) throws -> [ShardJob] {
        let db = store.database
        guard try db.tableExists("jobs") else {
            throw ReportError(file: store.path, message: "holds no keysim jobs (written by an earlier keysim?); merge combines shard files")
        }
        let rows = try db.query("""
            SELECT job_id, job_key, command, scenario_name, seed, replications, work_items, shard_index, shard_count, complete,
                   (SELECT COUNT(*) FROM job_runs r WHERE r.job_id = j.job_id)
            FROM jobs j ORDER BY job_id
            """)
        guard !rows.isEmpty else {
            throw ReportError(file: store.path, message: "holds no keysim jobs; merge combines the files of keysim run, compare or sweep --shard")
        }
        let orphans = try db.query("SELECT COUNT(*) FROM runs WHERE run_id NOT IN (SELECT run_id FROM job_runs)")[0][0].integerValue
        if orphans > 0 {
            throw ReportError(file: store.path, message: "holds \(orphans) run(s) that belong to no job (written by an earlier keysim?)")
        }
        let jobs = rows.map { row in
            ShardJob(input: input, jobID: row[0].integerValue, key: row[1].textValue, command: row[2].textValue,
                     scenarioName: row[3].textValue, seed: row[4].integerValue, replications: row[5].integerValue,
                     workItems: Int(row[6].integerValue), shardIndex: Int(row[7].integerValue), shardCount: Int(row[8].integerValue),
                     complete: row[9].integerValue == 1, runs: Int(row[10].integerValue))
        }
        // A shard run again into its own file (a retried array task or pod) leaves earlier
        // attempts behind: the last complete attempt counts, the others are not merged.
        var chosen: [String: ShardJob] = [:]
        for job in jobs {
            let slot = "\(job.key)/\(job.shardIndex)/\(job.shardCount)"
            if let current = chosen[slot], current.complete && !job.complete { continue }
            chosen[slot] = job
        }
        return jobs.filter { job in chosen["\(job.key)/\(job.shardIndex)/\(job.shardCount)"]?.jobID == job.jobID }
    }

    /// Checks that the inputs are the complete shards of the same jobs; returns, per job in
    /// the first input's order, its shards in shard order.
    private static func checkShards(_ jobsByInput: [[ShardJob]], inputs: [String]) throws -> [[ShardJob]] {
        let reference = jobsByInput[0]
        var plan: [[ShardJob]] = []
        for job in reference {
            var shards: [ShardJob] = []
            for (index, jobs) in jobsByInput.enumerated() {
                let matching = jobs.filter { $0.key == job.key }
                if matching.isEmpty {
                    let other = jobs[0]
                    if other.scenarioName != job.scenarioName {
                        throw ReportError(file: inputs[index], message: "comes from a different scenario ('\(other.scenarioName)') than \(inputs[0]) ('\(job.scenarioName)'); merge combines the shards of one job")
                    }
                    throw ReportError(file: inputs[index], message: "holds a different job (\(other.description)) than \(inputs[0]) (\(job.description)); merge combines the shards of one job")
                }
                shards += matching
            }
            for shard in shards {
                let file = inputs[shard.input]
                guard shard.shardCount == job.shardCount else {
                    throw ReportError(file: file, message: "holds shard \(shard.shardIndex)/\(shard.shardCount) of the job, but \(inputs[job.input]) holds shard \(job.shardIndex)/\(job.shardCount); shards of one job share N")
                }
                let expected = Shard(index: shard.shardIndex - 1, count: shard.shardCount).itemCount(of: shard.workItems)
                guard shard.complete, shard.runs == expected else {
                    throw ReportError(file: file, message: "shard \(shard.shardIndex)/\(shard.shardCount) is incomplete (\(shard.runs) of \(expected) runs; was it interrupted?); run it again")
                }
            }
            var byIndex: [Int: ShardJob] = [:]
            for shard in shards {
                if let earlier = byIndex[shard.shardIndex] {
                    let location = earlier.input == shard.input ? "twice in it" : "also in \(inputs[earlier.input])"
                    throw ReportError(file: inputs[shard.input], message: "holds shard \(shard.shardIndex)/\(shard.shardCount) of \(job.description), which is \(location)")
                }
                byIndex[shard.shardIndex] = shard
            }
            let missing = (1...job.shardCount).filter { byIndex[$0] == nil }
            guard missing.isEmpty else {
                let list = missing.prefix(10).map { "\($0)/\(job.shardCount)" }.joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
                throw ReportError(file: inputs[0], message: "cannot merge \(job.description): shard(s) \(list) missing")
            }
            plan.append((1...job.shardCount).map { byIndex[$0]! })
        }
        // Every job of every input must be one of the first input's: otherwise some input
        // holds work that would be silently left out.
        let keys = Set(reference.map(\.key))
        for (index, jobs) in jobsByInput.enumerated() {
            if let stray = jobs.first(where: { !keys.contains($0.key) }) {
                if stray.scenarioName != reference[0].scenarioName {
                    throw ReportError(file: inputs[index], message: "comes from a different scenario ('\(stray.scenarioName)') than \(inputs[0]) ('\(reference[0].scenarioName)'); merge combines the shards of one job")
                }
                throw ReportError(file: inputs[index], message: "holds a job that \(inputs[0]) does not (\(stray.description)); merge combines the shards of one job")
            }
        }
        return plan
    }

    // MARK: - Writing

    private static func write(_ plan: [[ShardJob]], from stores: [ReportStore], into db: Database) throws -> Summary {
        var nextRunID = try db.query("SELECT COALESCE(MAX(run_id), 0) FROM runs")[0][0].integerValue + 1
        var nextBatchID = try db.query("SELECT COALESCE(MAX(batch_id), 0) FROM batches")[0][0].integerValue + 1
        // Per input: old run id → (new run id, new batch id); old batch id → new batch id.
        var runMaps: [[Int64: (run: Int64, batch: Int64)]] = Array(repeating: [:], count: stores.count)
        var batchMaps: [[Int64: Int64]] = Array(repeating: [:], count: stores.count)
        var jobIDs: [Int64] = []
        var jobRuns: [(run: Int64, job: Int64, item: Int64)] = []
        var rows = 0

        for shards in plan {
            let first = shards[0]
            let jobRow = try stores[first.input].database.query("SELECT * FROM jobs WHERE job_id = ?", [.integer(first.jobID)])[0]
            let jobColumns = try stores[first.input].database.prepare("SELECT * FROM jobs LIMIT 0").columnNames
            var values = jobRow
            for (index, column) in jobColumns.enumerated() {
                switch column {
                case "job_id": values[index] = .null
                case "shard_index", "shard_count": values[index] = .integer(1)
                case "complete": values[index] = .integer(0)
                default: break
                }
            }
            try insert(db, table: "jobs", columns: jobColumns, values: values)
            let jobID = db.lastInsertRowID
            jobIDs.append(jobID)
            rows += 1

            // Batches, in batch order, each from the lowest shard that has it.
            var batchSources: [Int64: [(shard: ShardJob, batchID: Int64)]] = [:]
            for shard in shards {
                for row in try stores[shard.input].database.query(
                    "SELECT batch_index, batch_id FROM job_batches WHERE job_id = ? ORDER BY batch_index", [.integer(shard.jobID)]) {
                    batchSources[row[0].integerValue, default: []].append((shard, row[1].integerValue))
                }
            }
            for batchIndex in batchSources.keys.sorted() {
                let sources = batchSources[batchIndex]!
                let source = sources[0]
                let sourceDB = stores[source.shard.input].database
                let batchColumns = try sourceDB.prepare("SELECT * FROM batches LIMIT 0").columnNames
                var batchRow = try sourceDB.query("SELECT * FROM batches WHERE batch_id = ?", [.integer(source.batchID)])[0]
                var wallSeconds = 0.0
                var createdAt: String?
                for other in sources {
                    let row = try stores[other.shard.input].database.query(
                        "SELECT wall_seconds, created_at FROM batches WHERE batch_id = ?", [.integer(other.batchID)])[0]
                    wallSeconds += row[0].doubleValue ?? 0
                    createdAt = [createdAt, row[1].textValue].compactMap { $0 }.min()
                }
                for (index, column) in batchColumns.enumerated() {
                    switch column {
                    case "batch_id": batchRow[index] = .integer(nextBatchID)
                    case "wall_seconds": batchRow[index] = .real(wallSeconds)
                    case "created_at": batchRow[index] = createdAt.map(SQLValue.text) ?? batchRow[index]
                    default: break
                    }
                }
                try insert(db, table: "batches", columns: batchColumns, values: batchRow)
                let jobBatch = try sourceDB.query("SELECT label, settings FROM job_batches WHERE batch_id = ?", [.integer(source.batchID)])[0]
                try JobRows.insertJobBatch(db, batchID: nextBatchID, jobID: jobID, index: batchIndex, label: jobBatch[0].textValue,
                                           settings: jobBatch[1].textValue)
                for other in sources { batchMaps[other.shard.input][other.batchID] = nextBatchID }
                nextBatchID += 1
                rows += 2
            }

            // Runs in work-item order across the shards: the order of a single machine.
            var items: [(item: Int64, input: Int, run: Int64, batch: Int64)] = []
            for shard in shards {
                for row in try stores[shard.input].database.query("""
                    SELECT j.work_item, j.run_id, r.batch_id FROM job_runs j JOIN runs r USING (run_id) WHERE j.job_id = ?
                    """, [.integer(shard.jobID)]) {
                    items.append((row[0].integerValue, shard.input, row[1].integerValue, row[2].integerValue))
                }
            }
            items.sort { $0.item < $1.item }
            for (previous, next) in zip(items, items.dropFirst()) where previous.item == next.item {
                throw ReportError(file: stores[next.input].path, message: "work item \(next.item) of \(first.description) is in two shards")
            }
            for entry in items {
                guard let batch = batchMaps[entry.input][entry.batch] else { preconditionFailure("run \(entry.run) of a batch outside its job") }
                runMaps[entry.input][entry.run] = (nextRunID, batch)
                jobRuns.append((nextRunID, jobID, entry.item))
                nextRunID += 1
            }
        }

        // Every other table, input by input.
        let relations = try ReportInspector.relations(db).filter { !$0.isView && !managedTables.contains($0.name) }
        for (input, store) in stores.enumerated() {
            let sourceTables = Set(try ReportInspector.tableNames(store.database))
            for relation in relations where sourceTables.contains(relation.name) {
                rows += try copy(relation, from: store.database, into: db, runs: runMaps[input], batches: batchMaps[input])
            }
            rows += try copyFleets(from: store, into: db)
        }
        jobRuns.sort { $0.run < $1.run }
        let j = ReportTables.jobRuns
        var jobRunRows = BulkInsert(db, j.table)
        try jobRunRows.begin(rows: jobRuns.count)
        for entry in jobRuns {
            try jobRunRows.set(j.runID, entry.run)
            try jobRunRows.set(j.jobID, entry.job)
            try jobRunRows.set(j.workItem, entry.item)
            try jobRunRows.endRow()
        }
        try jobRunRows.finish()
        rows += jobRuns.count

        for jobID in jobIDs {
            try db.prepare("""
                UPDATE batches SET replications = (SELECT COUNT(DISTINCT replication) FROM runs r WHERE r.batch_id = batches.batch_id)
                WHERE batch_id IN (SELECT batch_id FROM job_batches WHERE job_id = ?)
                """).execute([.integer(jobID)])
            try JobAnalysis.finish(db, jobID: jobID)
        }
        return Summary(inputs: stores.count, jobIDs: jobIDs, jobDescriptions: plan.map { $0[0].description },
                       runs: jobRuns.count, rows: rows)
    }

    /// Copies every fleet of `store` (a file that holds runs may hold `keysim fleet` runs
    /// too), each under the next `fleet_id` of the output; returns the rows written.
    private static func copyFleets(from store: ReportStore, into db: Database) throws -> Int {
        var rows = 0
        for fleetID in try FleetReportStore.fleetIDs(store.database) {
            let id = try FleetReportStore.insert(try FleetReportStore.read(store, fleetID: fleetID), into: db)
            for table in [ReportTables.fleetSummary.table, ReportTables.fleetMinutes.table, ReportTables.fleetHistograms.table] {
                let count = try db.query("SELECT COUNT(*) FROM \(ReportInspector.quoted(table.name)) WHERE fleet_id = ?", [.integer(id)])
                if case .integer(let n)? = count.first?[0] { rows += Int(n) }
            }
        }
        return rows
    }

    /// Copies the rows of one table from an input, renumbering run and batch ids. Tables
    /// keyed by neither are catalogs (such as `metrics`): rows already present are kept.
    private static func copy(_ relation: ReportRelation, from source: Database, into db: Database,
                             runs: [Int64: (run: Int64, batch: Int64)], batches: [Int64: Int64]) throws -> Int {
        let sourceColumns = Set(try source.query("SELECT name FROM pragma_table_info(?)", [.text(relation.name)]).map(\.[0].textValue))
        // A run-keyed table's own integer id would collide across shards; let SQLite number it.
        let ownID = relation.isPerRun && relation.primaryKey.count == 1 && relation.primaryKey[0] != "run_id"
            && relation.name != "runs" ? relation.primaryKey[0] : nil
        let columns = relation.columns.filter { sourceColumns.contains($0) && $0 != ownID }
        guard !columns.isEmpty else { return 0 }
        let runColumn = columns.firstIndex(of: "run_id")
        let batchColumn = columns.firstIndex(of: "batch_id")
        let order = relation.primaryKey.filter(columns.contains)
        let select = try source.prepare("SELECT \(columns.map(ReportInspector.quoted).joined(separator: ", ")) FROM \(ReportInspector.quoted(relation.name))"
                                        + (order.isEmpty ? " ORDER BY rowid" : " ORDER BY " + order.map(ReportInspector.quoted).joined(separator: ", ")))
        let verb = runColumn == nil ? "INSERT OR IGNORE" : "INSERT"
        let insert = try db.prepare("\(verb) INTO \(ReportInspector.quoted(relation.name)) (\(columns.map(ReportInspector.quoted).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
        var copied = 0
        try select.forEachRow { row in
            var mappedBatch: Int64?
            if let runColumn {
                guard let mapped = runs[row.int64(at: Int32(runColumn))] else { return }
                try insert.bind(mapped.run, at: Int32(runColumn + 1))
                mappedBatch = mapped.batch
            }
            if let batchColumn {
                let batch = mappedBatch ?? batches[row.int64(at: Int32(batchColumn))]
                guard let batch else { return }
                try insert.bind(batch, at: Int32(batchColumn + 1))
            }
            for index in 0..<columns.count where index != runColumn && index != batchColumn {
                try insert.bind(row.value(at: Int32(index)), at: Int32(index + 1))
            }
            try insert.execute()
            copied += 1
        }
        return copied
    }

    private static func insert(_ db: Database, table: String, columns: [String], values: [SQLValue]) throws {
        let sql = "INSERT INTO \(ReportInspector.quoted(table)) (\(columns.map(ReportInspector.quoted).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        try db.prepare(sql).execute(values)
    }
}
