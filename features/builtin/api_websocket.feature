@api @builtin
Feature: Built-in steps: WebSockets
  The demo app's /ws (demoapp/websocket.go) greets, answers pings, sends
  three orders to a subscriber and echoes any other text. An expectation
  takes the first message not taken yet that passes it.

  Scenario: Sending and expecting messages
    When I connect to the WebSocket "/ws?user=ada"
    Then I expect the WebSocket to receive a JSON message to match:
      """json
      { "type": "welcome", "user": "ada" }
      """
    When I send to the WebSocket:
      """json
      { "type": "ping", "id": 7 }
      """
    Then I expect the WebSocket to receive a JSON message to contain:
      """json
      { "type": "pong", "id": "#? _ == 7" }
      """
    When I send "hello" to the WebSocket
    Then I expect the WebSocket to receive a message to equal "echo: hello"
    And I expect the WebSocket not to be closed
    When I close the WebSocket
    Then I expect the WebSocket to be closed

  Scenario: Two sockets, named, and messages in order
    When I connect to the WebSocket "/ws?user=alice" as "alice"
    And I connect to the WebSocket "/ws?user=bob" as "bob"
    And I remember the next message of the "bob" WebSocket as "hello"
    Then I expect "$hello.user" to equal "bob"
    When I send to the "alice" WebSocket:
      """json
      { "type": "subscribe", "topic": "orders" }
      """
    Then I expect the "alice" WebSocket to receive a message to contain "welcome"
    And I expect the "alice" WebSocket to receive a JSON message to contain:
      """json
      { "type": "order", "id": 1 }
      """
    And I expect the "alice" WebSocket to receive a message not to contain "welcome"
    And I expect the "alice" WebSocket to receive a JSON message not to contain:
      """json
      { "id": 2 }
      """
    And I expect "$hello.type" to equal "welcome"
    When I send to the "bob" WebSocket:
      """json
      { "type": "close" }
      """
    Then I expect the "bob" WebSocket to be closed
    And I attach the "alice" WebSocket messages to the report
