package demoapp

// The demo app's WebSocket endpoint, for the built-in WebSocket steps:
//
//	GET /ws   on connecting, the server sends {"type": "welcome", "user": "<?user= or guest>"};
//	          {"type": "ping", "id": N}             -> {"type": "pong", "id": N}
//	          {"type": "subscribe", "topic": "orders"} -> three {"type": "order", "id": 1..3, "status": "new"}
//	          {"type": "close"}                      -> the server closes with 1000 "bye"
//	          any other text                         -> "echo: <text>"

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// wsLife bounds one connection, so a forgotten client cannot keep a test
// server's goroutine forever.
const wsLife = 5 * time.Minute

func serveWebSocket(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept answered the request
	}
	defer c.CloseNow()
	ctx, cancel := context.WithTimeout(r.Context(), wsLife)
	defer cancel()
	send := func(v any) error {
		b, _ := json.Marshal(v)
		return c.Write(ctx, websocket.MessageText, b)
	}
	user := r.URL.Query().Get("user")
	if user == "" {
		user = "guest"
	}
	if send(map[string]any{"type": "welcome", "user": user}) != nil {
		return
	}
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var msg struct {
			Type  string `json:"type"`
			ID    any    `json:"id"`
			Topic string `json:"topic"`
		}
		if typ != websocket.MessageText || json.Unmarshal(data, &msg) != nil || msg.Type == "" {
			if c.Write(ctx, websocket.MessageText, append([]byte("echo: "), data...)) != nil {
				return
			}
			continue
		}
		switch msg.Type {
		case "ping":
			err = send(map[string]any{"type": "pong", "id": msg.ID})
		case "subscribe":
			for i := 1; i <= 3 && err == nil; i++ {
				err = send(map[string]any{"type": "order", "topic": msg.Topic, "id": i, "status": "new"})
			}
		case "close":
			_ = c.Close(websocket.StatusNormalClosure, "bye")
			return
		default:
			err = send(map[string]any{"type": "error", "message": "unknown type " + msg.Type})
		}
		if err != nil {
			return
		}
	}
}
