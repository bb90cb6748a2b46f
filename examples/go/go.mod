module example.com/iacm-mock-go

go 1.19
