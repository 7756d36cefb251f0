// Every `dpq` command, in the order `dpq --help` lists them.
#ifndef DPQ_CLIENT_COMMANDS_REGISTRY_H_
#define DPQ_CLIENT_COMMANDS_REGISTRY_H_

#include <memory>
#include <vector>

#include "client/command.h"

namespace dpq::client {

// A fresh instance of each command (a command holds the values of one
// parse).
std::vector<std::unique_ptr<Command>> AllCommands();

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_REGISTRY_H_
