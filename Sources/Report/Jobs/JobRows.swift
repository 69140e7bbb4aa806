import Scenarios

/// The rows that say which job wrote what (`jobs`, `job_batches`), written by `JobWriter`
/// as a job runs and by `ReportMerge` as it puts shards together.
enum JobRows {
    /// Inserts the `jobs` row of `job` run as `shard`, not yet complete; returns its id.
    static func insertJob(_ database: Database, _ job: Job, shard: Shard) throws -> Int64 {
        let first = job.batches[0].scenario
        let j = ReportTables.jobs
        var rows = BulkInsert(database, j.table)
        try rows.insertRow { row in
            try row.set(j.jobKey, job.key)
            try row.set(j.command, job.command)
            try row.set(j.scenarioName, first.name)
            try row.set(j.scenarioPath, first.path)
            try row.set(j.tracesHash, job.tracesHash)
            try row.set(j.seed, Int64(bitPattern: job.seed))
            try row.set(j.replications, job.replications)
            try row.set(j.batches, job.batches.count)
            try row.set(j.workItems, job.itemCount)
            try row.set(j.shardIndex, shard.index + 1)
            try row.set(j.shardCount, shard.count)
            try row.set(j.spec, job.spec)
            try row.set(j.keysimVersion, KeysimVersion.current)
            try row.set(j.complete, false)
        }
        return database.lastInsertRowID
    }

    /// Inserts batch `batchID`'s `job_batches` row: its place `index` in job `jobID`, its
    /// label and settings.
    static func insertJobBatch(_ database: Database, batchID: Int64, jobID: Int64, index: Int64, label: String,
                               settings: String) throws {
        let b = ReportTables.jobBatches
        var rows = BulkInsert(database, b.table)
        try rows.insertRow { row in
            try row.set(b.batchID, batchID)
            try row.set(b.jobID, jobID)
            try row.set(b.batchIndex, index)
            try row.set(b.label, label)
            try row.set(b.settings, settings)
        }
    }
}
