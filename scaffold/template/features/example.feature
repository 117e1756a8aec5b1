Feature: Example
  A first feature to start from. It tests the demo app that ferridriver
  serves (see [[webServer]] in ferridriver.toml); point baseURL at your own
  application and write your features next to this one.

  Scenario: Logging in
    Given I open the login page
    When I log in as "demo" with password "secret"
    Then I see the heading "Welcome, demo!"

  Scenario: Adding a todo
    Given I open the todo list
    When I add the todo "Write my first feature"
    Then the list has 1 todo
    And the counter reads "1 item left"
