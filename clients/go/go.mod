module github.com/hunters-engine/hunters-engine/clients/go

go 1.19

// The versions built and tested here, offline, in GOPATH mode on Debian 12's packages (grpc 1.33.3,
// protobuf 1.28.1, golang/protobuf 1.5.2, x/net 0.7.0, x/sys 0.3.0, x/text 0.7.0); genproto is the
// version grpc 1.33.3 requires (Debian's is an older snapshot with the same rpc/status and
// rpc/errdetails). With the module proxy, `go mod tidy` writes go.sum (not checkable offline).
require (
	google.golang.org/genproto v0.0.0-20200526211855-cb27e3aa2013
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
)

require (
	github.com/golang/protobuf v1.5.2 // indirect
	golang.org/x/net v0.7.0 // indirect
	golang.org/x/sys v0.3.0 // indirect
	golang.org/x/text v0.7.0 // indirect
)
