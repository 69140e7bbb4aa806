import XCTest
@testable import Sim

/// The shared backend's kept structures against plain reference models, over many seeds:
/// admission control's slot selection (no sort) against sorting every slot, the queue's
/// lazy deletion against an array, and the kept wake-up against working it out afresh
/// (`checkInvariants`).
final class SharedBackendStructureTests: XCTestCase {
    /// Admission's prediction as first written: every slot listed replica by replica, then
    /// sorted by time with `sort(by:)`; `byReplicaOnTies` sorts by (time, replica) instead.
    static func referencePrediction(_ backend: SharedBackend, _ request: BackendRequest, at now: SimTime,
                                    byReplicaOnTies: Bool) -> SimDuration {
        let config = backend.config
        var slots: [(time: SimTime, batch: Int, replica: Int)] = []
        for (index, replica) in backend.replicas.enumerated() {
            let batch = min(config.maxBatch, replica.members.count + 1)
            let free = replica.isAtBoundary(now) ? now : replica.nextBoundary(atOrAfter: now)
            for _ in replica.members.count..<config.maxBatch { slots.append((free, batch, index)) }
            for member in replica.members { slots.append((replica.boundary(member.remainingTokens), batch, index)) }
        }
        if byReplicaOnTies {
            slots.sort { ($0.time, $0.replica) < ($1.time, $1.replica) }
        } else {
            slots.sort { $0.time < $1.time }
        }
        let prefill = request.inputTokens - backend.cachedTokens(request, at: now)
        let ahead = backend.queue.count
        let slot = slots[ahead % slots.count]
        let rounds = Int64(ahead / slots.count)
        let fullFirst = config.iteration.nanos(batch: config.maxBatch, prefillTokens: prefill)
        let fullSteady = config.iteration.nanos(batch: config.maxBatch, prefillTokens: 0)
        let round = fullFirst + Int64(max(1, request.outputTokens) - 1) * fullSteady
        let firstIteration = rounds > 0 ? fullFirst : config.iteration.nanos(batch: slot.batch, prefillTokens: prefill)
        return (slot.time - now) + SimDuration(nanoseconds: rounds * round + firstIteration)
    }

    func testAdmissionsSlotIsTheOneSortingEverySlotFinds() {
        var checked = 0
        for seed in 0..<60 {
            var random = RandomStream(seed: UInt64(seed), replication: 0, name: "test.sharedBackend.slots")
            // Iterations on a coarse grid (whole milliseconds), so that replicas' boundaries
            // and finishes often fall at the same instant: ties between replicas are common.
            let config = SharedBackendConfig(replicas: 1 + random.nextInt(below: 4), maxBatch: 1 + random.nextInt(below: 6),
                                             iteration: .init(baseNanos: Int64(1 + random.nextInt(below: 3)) * 1_000_000,
                                                              perRequestNanos: Int64(random.nextInt(below: 2)) * 1_000_000,
                                                              perPrefillTokenNanos: 0),
                                             queueLimit: 40)
            var backend = SharedBackend(config: config)
            var time: Int64 = 0
            for attempt in 0..<120 {
                time += Int64(random.nextInt(below: 3)) * 1_000_000
                _ = backend.submit(SharedBackendTests.request(attempt, input: 10, output: 1 + random.nextInt(below: 8)),
                                   arrivingAt: SimTime(nanoseconds: time))
                while let wake = backend.nextWake, wake.nanoseconds <= time {
                    _ = backend.wake(at: wake)
                    backend.checkInvariants()
                    let probe = SharedBackendTests.request(10_000, input: 10, output: 1 + random.nextInt(below: 8))
                    let expected = Self.referencePrediction(backend, probe, at: wake, byReplicaOnTies: true)
                    XCTAssertEqual(backend.predictedFirstToken(probe, at: wake), expected, "seed \(seed)")
                    XCTAssertEqual(Self.referencePrediction(backend, probe, at: wake, byReplicaOnTies: false), expected,
                                   "seed \(seed): sorting by time alone kept the replicas' order on ties (a stable sort)")
                    checked += 1
                }
            }
            _ = SharedBackendTests.drain(&backend)
        }
        XCTAssertGreaterThan(checked, 1_000)
    }

    func testTheQueuesLazyDeletionIsAnArraysRemoval() {
        for seed in 0..<40 {
            var random = RandomStream(seed: UInt64(seed), replication: 0, name: "test.sharedBackend.queue")
            var queue = SharedBackendQueue()
            var model: [Int] = []
            var next = 0
            for _ in 0..<2_000 {
                switch random.nextInt(below: 10) {
                case 0..<5:
                    queue.append(SharedBackendJob(request: SharedBackendTests.request(next, input: 1, output: 1), arrival: .zero, sequence: next))
                    model.append(next)
                    next += 1
                case 5..<8:
                    guard !model.isEmpty else { continue }
                    XCTAssertEqual(queue.removeFirst().request.id.attempt, model.removeFirst(), "seed \(seed)")
                default:
                    // A waiting attempt, or one that left or never came.
                    let attempt = random.nextInt(below: next + 3)
                    let index = model.firstIndex(of: attempt)
                    if let index { model.remove(at: index) }
                    XCTAssertEqual(queue.remove(BackendAttemptID(user: 0, session: 0, attempt: attempt)), index != nil, "seed \(seed)")
                }
                XCTAssertEqual(queue.count, model.count, "seed \(seed)")
                queue.checkInvariants()
            }
        }
    }
}
