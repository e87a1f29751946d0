// The lab's Go client (docs/lab.md, "Client runtimes"): one HTTP GET per -interval, -count
// times, one JSON line per request on stdout, through one net/http Client (the default
// transport: keep-alive, Happy Eyeballs with a 300 ms fallback delay). The resolver is the
// caller's choice: GODEBUG=netdns=go (pure Go) or netdns=cgo (glibc). Standard library only.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"
)

type line struct {
	T       float64 `json:"t"`
	Peer    *string `json:"peer"`
	NewConn *bool   `json:"new_conn"`
	Origin  *string `json:"origin"`
	Error   *string `json:"error"`
	Detail  string  `json:"detail"`
}

func kind(err error) string {
	var dnsError *net.DNSError
	var netError net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "reset"
	case errors.As(err, &dnsError):
		return "dns"
	case errors.As(err, &netError) && netError.Timeout():
		return "timeout"
	case strings.Contains(err.Error(), "tls"):
		return "tls"
	}
	return "other"
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println(runtime.Version())
		return
	}
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: lab_client URL -interval S -count N [-connect-timeout S]")
		os.Exit(2)
	}
	url := os.Args[1]
	flags := flag.NewFlagSet("lab_client", flag.ExitOnError)
	interval := flags.Float64("interval", 1, "seconds between requests")
	count := flags.Int("count", 1, "requests")
	timeout := flags.Float64("connect-timeout", 0, "connect timeout in seconds (0: the transport's default)")
	flags.Parse(os.Args[2:])
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if *timeout > 0 {
		dialer := &net.Dialer{Timeout: time.Duration(*timeout * float64(time.Second)), KeepAlive: 30 * time.Second}
		transport.DialContext = dialer.DialContext
	}
	client := &http.Client{Transport: transport}
	begin := time.Now()
	out := json.NewEncoder(os.Stdout)
	for index := 0; index < *count; index++ {
		slot := begin.Add(time.Duration(float64(index) * *interval * float64(time.Second)))
		time.Sleep(time.Until(slot))
		started := time.Now()
		record := line{T: float64(started.UnixNano()) / 1e9}
		trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
			peer := info.Conn.RemoteAddr().String()
			fresh := !info.Reused
			record.Peer, record.NewConn = &peer, &fresh
		}}
		request, _ := http.NewRequest("GET", url, nil)
		request = request.WithContext(httptrace.WithClientTrace(request.Context(), trace))
		response, err := client.Do(request)
		if err == nil {
			body, readErr := io.ReadAll(response.Body)
			response.Body.Close()
			err = readErr
			origin := strings.TrimSpace(string(body))
			record.Origin = &origin
			record.Detail = fmt.Sprint(response.StatusCode)
		}
		if err != nil {
			errorKind := kind(err)
			record.Error, record.Origin = &errorKind, nil
			record.Detail = err.Error()
			if len(record.Detail) > 200 {
				record.Detail = record.Detail[:200]
			}
		}
		out.Encode(record)
	}
}
