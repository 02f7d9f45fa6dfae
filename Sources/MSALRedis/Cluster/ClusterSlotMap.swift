import Foundation

/// Which Redis Cluster node serves each of the 16,384 hash slots, read from `CLUSTER SLOTS`, and
/// the rules that place a key in a slot.
struct ClusterSlotMap {
    struct Node: Hashable {
        var host: String
        var port: Int
    }

    static let slotCount = 16384
    /// The primary serving each slot; `nil` for a slot no node serves.
    private var owners: [Node?]
    /// Set when a node failed: the map is read again before the next routed command.
    var isStale = false

    var nodes: [Node] { Array(Set(owners.compactMap { $0 })) }

    /// Reads a `CLUSTER SLOTS` reply: an array of [first slot, last slot, [host, port, …], replicas…].
    init(reply: MSALRedisReply) throws(MSALRedisError) {
        owners = Array(repeating: nil, count: Self.slotCount)
        guard let ranges = reply.array else { throw MSALRedisError(.cluster, "CLUSTER SLOTS answered something that is not a slot map") }
        for range in ranges {
            guard let fields = range.array, fields.count >= 3, let first = fields[0].integer, let last = fields[1].integer,
                let primary = fields[2].array, primary.count >= 2, let host = primary[0].string, let port = primary[1].integer,
                0 <= first, first <= last, last < Self.slotCount
            else { throw MSALRedisError(.cluster, "CLUSTER SLOTS answered a malformed slot range") }
            for slot in Int(first)...Int(last) { owners[slot] = Node(host: host, port: Int(port)) }
        }
    }

    func node(for slot: Int) -> Node? { owners[slot] }

    /// The node of a `MOVED slot host:port` or `ASK slot host:port` reply.
    static func redirection(_ text: String) -> Node? {
        let words = text.split(separator: " ")
        guard words.count == 3, let colon = words[2].lastIndex(of: ":"), let port = Int(words[2][words[2].index(after: colon)...])
        else { return nil }
        let host = String(words[2][..<colon])
        return Node(host: host.isEmpty ? "127.0.0.1" : host, port: port)
    }

    /// A key's hash slot: CRC16 (XMODEM) of the key, or of the part inside its first `{…}` when
    /// that part is not empty (a hash tag), mod 16384.
    static func slot(of key: Data) -> Int {
        var bytes = [UInt8](key)
        if let open = bytes.firstIndex(of: UInt8(ascii: "{")),
            let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1
        {
            bytes = Array(bytes[(open + 1)..<close])
        }
        return Int(crc16(bytes)) % slotCount
    }

    /// CRC-16/XMODEM (polynomial 0x1021, initial value 0), the checksum Redis Cluster hashes keys with.
    static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}
