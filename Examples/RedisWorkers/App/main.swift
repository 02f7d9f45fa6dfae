import RedisWorkersKit

// `redis-workers`: the example's logic is in RedisWorkersKit (Examples/RedisWorkers/Kit); this
// only hands it the command line. Examples/RedisWorkers/README.md walks through it.
await RedisWorkersCommand.main(Array(CommandLine.arguments.dropFirst()))
