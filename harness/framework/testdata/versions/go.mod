module example.com/versions

go 1.26.0

require modernc.org/sqlite v1.62.0

require golang.org/x/sys v0.49.0 // indirect
